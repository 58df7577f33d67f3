// SPDX-License-Identifier: GPL-2.0
/*
 * ab.c - an A/B's boots: kernel A and kernel B in turn, each boot one
 * run of a job, stored as it ends.
 *
 * Boots alternate A B A B (or a seeded random order per round) so that
 * the machine's drift falls on both sides.  A kernel that fails to boot
 * never produces samples and is counted as what it is.  From the first
 * look on, each round ends with the looks (looks.c), which may answer
 * the A/B before max_boots.
 *
 * On several devices of a LAVA lab each device is a lane: every round
 * boots both sides on every device, the lanes in parallel (a thread
 * each, waiting on its jobs), so that a device is never confounded
 * with a kernel; each run's device is its block.  The lanes share the
 * database and the front end under one lock.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static unsigned long next_rand(unsigned long *s)
{
	*s = *s * 6364136223846793005UL + 1442695040888963407UL;
	return *s >> 33;
}

/* One device's turns of a round (the only lane without devices). */
struct lane {
	struct kab_drv_ab *ab;
	struct kab_drv_run c;
	struct kab_lava_opts lava;	/* pinned to the lane's device */
	struct kab_qemu_opts q;		/* the turn's boot: its side's, at
					   the round's layout seed */
	size_t d, nr_d;			/* the device, of how many */
	int k;				/* the round */
	const int *first;		/* the side going first, by job */
	bool fatal;
	int rc;
};

static void lane_lock(struct lane *l)
{
	if (l->c.lock)
		pthread_mutex_lock(l->c.lock);
}

static void lane_unlock(struct lane *l)
{
	if (l->c.lock)
		pthread_mutex_unlock(l->c.lock);
}

static bool going(struct lane *l)
{
	bool fatal;

	lane_lock(l);
	fatal = l->ab->fatal;
	lane_unlock(l);
	return !fatal && !l->fatal && !kab_stop_requested;
}

/* A test machine is switched to the side's kernel before its turn. */
static int switch_side(struct kab_drv_ab *ab, struct kab_drv_side *s)
{
	char *release = NULL;
	int rc;

	s->ssh.label = s->label;
	rc = kab_drv_ssh_switch(ab->ssh, &s->ssh, ab->setup_timeout, ab->ui,
				&release);
	free(release);
	return rc;
}

/*
 * Turn i (0: the side going first) of job j in the lane's round; its
 * place in the A/B (the boots' ab_seq) is fixed by round, job, device
 * and turn, so that a resume finds it.
 */
static int turn(struct lane *l, size_t j, int i)
{
	struct kab_drv_ab *ab = l->ab;
	int side = i ^ l->first[j];
	struct kab_drv_side *s = &ab->sides[side];
	struct kab_drv_run *c = &l->c;
	bool done;
	int rc = 0;

	c->ab_seq = (int)(((l->k * (size_t)ab->jobs->nr + j) * l->nr_d +
			   l->d) * 2 + (size_t)i);
	lane_lock(l);
	c->job_nr = ++ab->turns;
	/* A resumed A/B skips the boots it has. */
	done = kab_db_ab_seq_done(ab->db, ab->id, c->ab_seq);
	if (done) {
		s->earlier++;
		kab_drv_looks_add(&ab->looks, ab->db, j, side,
				  kab_db_ab_seq_run(ab->db, ab->id,
						    c->ab_seq));
	}
	lane_unlock(l);
	if (done)
		return 0;
	c->job = &ab->jobs->jobs[j];
	c->label = s->label;
	c->commit = s->commit;
	/* round k of every side boots at one layout: seed first + k */
	l->q = s->q;
	l->q.seed = ab->layout_seed ? ab->layout_seed + (unsigned)l->k : 0;
	c->qemu = ab->ssh ? NULL : &l->q;
	if (ab->ssh && switch_side(ab, s)) {
		l->fatal = true;
		return -1;
	}
	if (kab_drv_run_one(c, &l->fatal))
		rc = -1;
	lane_lock(l);
	s->outcomes[c->last_outcome]++;
	if (c->last_outcome == KAB_BOOT_OK)
		kab_drv_looks_add(&ab->looks, ab->db, j, side, c->run_id);
	lane_unlock(l);
	return rc;
}

static void *lane_run(void *arg)
{
	struct lane *l = arg;
	size_t j;
	int i;

	for (j = 0; j < (size_t)l->ab->jobs->nr && going(l); j++)
		for (i = 0; i < 2 && going(l); i++) {
			if (turn(l, j, i))
				l->rc = -1;
			/* the other lanes stop at their next turn too */
			if (l->fatal) {
				lane_lock(l);
				l->ab->fatal = true;
				lane_unlock(l);
			}
		}
	return NULL;
}

/* Round k on every lane: in parallel when there are several. */
static int round_run(struct kab_drv_ab *ab, struct lane *lanes, size_t nr,
		     int k, const int *first)
{
	size_t d;
	int rc = 0;

	for (d = 0; d < nr; d++) {
		lanes[d].k = k;
		lanes[d].first = first + d * (size_t)ab->jobs->nr;
		lanes[d].rc = 0;
	}
	if (nr == 1) {
		lane_run(&lanes[0]);
	} else {
		pthread_t *t = xcalloc(nr, sizeof(*t));
		bool *started = xcalloc(nr, sizeof(*started));

		for (d = 0; d < nr; d++)
			started[d] = !pthread_create(&t[d], NULL, lane_run,
						     &lanes[d]);
		for (d = 0; d < nr; d++)
			if (started[d])
				pthread_join(t[d], NULL);
			else
				lane_run(&lanes[d]);
		free(started);
		free(t);
	}
	for (d = 0; d < nr; d++) {
		if (lanes[d].rc)
			rc = -1;
		if (lanes[d].fatal)
			ab->fatal = true;
	}
	return rc;
}

static void lanes_init(struct kab_drv_ab *ab, struct lane *lanes, size_t nr,
		       pthread_mutex_t *lock)
{
	size_t d;

	for (d = 0; d < nr; d++) {
		struct lane *l = &lanes[d];

		memset(l, 0, sizeof(*l));
		l->ab = ab;
		l->d = d;
		l->nr_d = nr;
		l->c = (struct kab_drv_run){
			.db = ab->db,
			.monitors = ab->monitors,
			.iterations = ab->iterations,
			.ssh = ab->ssh,
			.lava = ab->lava,
			.agent = ab->agent,
			.ui = ab->ui,
			.ab_id = ab->id,
			.nr_jobs = ab->max_boots * 2 * ab->jobs->nr * (int)nr,
			.lock = nr > 1 ? lock : NULL,
		};
		if (ab->lava && ab->nr_devices) {
			l->lava = *ab->lava;
			l->lava.tag = ab->devices[d].tag;
			l->c.lava = &l->lava;
		}
	}
}

int kab_drv_ab_run(struct kab_drv_ab *ab)
{
	size_t nr = ab->lava && ab->nr_devices > 1 ? ab->nr_devices : 1;
	size_t per = nr * (size_t)ab->jobs->nr, x;
	const char *labels[2] = { ab->sides[0].label, ab->sides[1].label };
	struct lane *lanes = xcalloc(nr, sizeof(*lanes));
	int *first = xcalloc(per ? per : 1, sizeof(*first));
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	int k, rc = 0;

	lanes_init(ab, lanes, nr, &lock);
	ab->answered = false;
	ab->turns = 0;
	for (k = 0; k < ab->max_boots && !ab->fatal && !kab_stop_requested &&
	     !ab->answered; k++) {
		/* the order of each job on each device, drawn in turn */
		for (x = 0; x < per; x++)
			first[x] = ab->random ?
				   (int)(next_rand(&ab->seed) & 1) : 0;
		if (round_run(ab, lanes, nr, k, first))
			rc = -1;
		if (ab->fatal || kab_stop_requested)
			break;
		ab->rounds = k + 1;
		ab->answered = kab_drv_looks_round(&ab->looks, (size_t)k + 1,
						   labels, ab->ui);
		if (ab->answered && k + 1 < ab->max_boots)
			drv_info(ab->ui, "answered after %d of at most %d "
				 "boots a side: stopping", k + 1,
				 ab->max_boots);
	}
	free(first);
	free(lanes);
	return rc;
}
