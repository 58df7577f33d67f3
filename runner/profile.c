// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c - what the perf-profile monitor makes of its samples, apart
 * from how it gets them: kernel symbols from /proc/kallsyms, names fixed
 * up as lkp does, and each sample's call chain counted into lkp's
 * shares:
 *
 *   perf-profile.self.<event>.<sym>       samples whose leaf is sym
 *   perf-profile.children.<event>.<sym>   samples with sym in the chain
 *   perf-profile.calltrace.<event>.<sym>.<caller>...
 *                                         samples with sym called from
 *                                         those callers (up to four)
 *
 * each as a percentage of all samples, kept when at least min_pct; and
 * each sample's whole stack, folded root first ("a;b;c"), counted for
 * flame graphs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* ---- kernel symbols ---- */

struct ksym {
	uint64_t addr;
	char *name;
};

struct kab_ksyms {
	size_t nr;
	struct ksym *v;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Text symbols (t, T, w, W) of "ADDR TYPE NAME [module]" lines, named
 * as lkp names them; NULL when none has an address (kptr_restrict hides
 * them as 0).
 */
struct kab_ksyms *kab_ksyms_parse(const char *text)
{
	struct kab_ksyms *k = xcalloc(1, sizeof(*k));
	size_t alloc = 0;
	const char *line = text;

	while (*line) {
		const char *nl = strchrnul(line, '\n'), *name, *name_end;
		unsigned long long addr;
		char *end, buf[256];

		/* by hand: sscanf would measure the whole text every line */
		addr = strtoull(line, &end, 16);
		if (end > line && end + 3 < nl && end[0] == ' ' &&
		    end[2] == ' ' && addr && strchr("tTwW", end[1])) {
			name = end + 3;
			name_end = name + strcspn(name, " \t\n");
			if (name_end > name && name_end - name < 256) {
				memcpy(buf, name, name_end - name);
				buf[name_end - name] = '\0';
				if (k->nr == alloc) {
					alloc = alloc ? 2 * alloc : 4096;
					k->v = xrealloc(k->v,
							alloc * sizeof(*k->v));
				}
				k->v[k->nr].addr = addr;
				k->v[k->nr++].name =
					kab_profile_symbol_fixup(buf);
			}
		}
		line = *nl ? nl + 1 : nl;
	}
	if (!k->nr) {
		kab_ksyms_free(k);
		return NULL;
	}
	qsort(k->v, k->nr, sizeof(*k->v), ksym_cmp);
	return k;
}

/* The symbol at or below addr, or NULL below the first. */
const char *kab_ksyms_lookup(const struct kab_ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi;

	if (!k || !k->nr || addr < k->v[0].addr)
		return NULL;
	hi = k->nr;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return k->v[lo].name;
}

void kab_ksyms_free(struct kab_ksyms *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->nr; i++)
		free(k->v[i].name);
	free(k->v);
	free(k);
}

/*
 * lkp's names: the compiler's clones are the function (foo.isra.0,
 * foo.constprop.3, foo.part.1, foo.cold -> foo), and what a metric name
 * cannot hold (space, comma, quote, control) becomes '_'.
 */
char *kab_profile_symbol_fixup(const char *name)
{
	static const char *const clones[] = { ".isra.", ".constprop.",
					      ".part.", ".cold" };
	char *s = xstrdup(name), *p;
	size_t i;
	bool again = true;

	while (again) {
		again = false;
		for (i = 0; i < ARRAY_SIZE(clones); i++) {
			p = strstr(s, clones[i]);
			if (p && p > s) {
				*p = '\0';
				again = true;
			}
		}
	}
	for (p = s; *p; p++)
		if (*p <= ' ' || *p > '~' || *p == ',' || *p == '"')
			*p = '_';
	return s;
}

/* ---- counting ---- */

/* Open addressing, string keys, FNV-1a. */
struct counts {
	size_t cap, nr;
	char **key;
	uint64_t *n;
};

static uint64_t fnv(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void counts_grow(struct counts *c);

static void counts_add(struct counts *c, const char *key, uint64_t by)
{
	size_t i;

	if (2 * (c->nr + 1) > c->cap)
		counts_grow(c);
	for (i = fnv(key) & (c->cap - 1); c->key[i];
	     i = (i + 1) & (c->cap - 1))
		if (!strcmp(c->key[i], key)) {
			c->n[i] += by;
			return;
		}
	c->key[i] = xstrdup(key);
	c->n[i] = by;
	c->nr++;
}

static void counts_grow(struct counts *c)
{
	struct counts old = *c;
	size_t i;

	c->cap = c->cap ? 2 * c->cap : 1024;
	c->nr = 0;
	c->key = xcalloc(c->cap, sizeof(*c->key));
	c->n = xcalloc(c->cap, sizeof(*c->n));
	for (i = 0; i < old.cap; i++)
		if (old.key[i]) {
			counts_add(c, old.key[i], old.n[i]);
			free(old.key[i]);
		}
	free(old.key);
	free(old.n);
}

static void counts_free(struct counts *c)
{
	size_t i;

	for (i = 0; i < c->cap; i++)
		free(c->key[i]);
	free(c->key);
	free(c->n);
	memset(c, 0, sizeof(*c));
}

struct kab_profile {
	char *event;
	uint64_t samples;
	struct counts self, children, calltrace, stacks;
};

struct kab_profile *kab_profile_new(const char *event)
{
	struct kab_profile *p = xcalloc(1, sizeof(*p));

	p->event = xstrdup(event);
	return p;
}

uint64_t kab_profile_samples(const struct kab_profile *p)
{
	return p->samples;
}

/* The key of chain[i] with up to KAB_CALLTRACE_DEPTH - 1 callers. */
#define KAB_CALLTRACE_DEPTH 5

static void calltrace_key(struct strbuf *sb, const char *const *chain,
			  size_t n, size_t i)
{
	size_t j;

	strbuf_reset(sb);
	for (j = i; j < n && j < i + KAB_CALLTRACE_DEPTH; j++) {
		if (j > i)
			strbuf_addstr(sb, ".");
		strbuf_addstr(sb, chain[j]);
	}
}

/* Do positions i and j start the same calltrace key? */
static bool same_window(const char *const *chain, size_t n, size_t i,
			size_t j)
{
	size_t k;

	for (k = 0; k < KAB_CALLTRACE_DEPTH; k++) {
		bool ei = i + k >= n, ej = j + k >= n;

		if (ei || ej)
			return ei && ej;
		if (strcmp(chain[i + k], chain[j + k]))
			return false;
	}
	return true;
}

/*
 * A frame as a folded stack holds it: at most KAB_FRAME_MAX bytes (a
 * C++ name can be longer), and what a frame cannot hold (a space in
 * "operator new(unsigned long)", a ',', a ';') as '_'.
 */
static void fold_frame(struct strbuf *sb, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char c = name[i];

		if (c <= ' ' || c > '~' || c == ',' || c == '"' || c == ';')
			c = '_';
		strbuf_add(sb, &c, 1);
	}
}

void kab_profile_add(struct kab_profile *p, const char *const *chain,
		     size_t n)
{
	struct strbuf key = STRBUF_INIT;
	size_t i, j;

	p->samples++;
	if (!n)
		return;
	counts_add(&p->self, chain[0], 1);
	/* root first; a stack too long for KAB_STACK_MAX loses its leaves */
	strbuf_reset(&key);
	for (i = n; i-- > 0;) {
		size_t len = strlen(chain[i]);

		if (len > KAB_FRAME_MAX)
			len = KAB_FRAME_MAX;
		if (key.len + len + 1 >= KAB_STACK_MAX)
			break;
		if (key.len)
			strbuf_addstr(&key, ";");
		fold_frame(&key, chain[i], len);
	}
	if (key.len)
		counts_add(&p->stacks, key.buf, 1);
	/* each once a sample, however deep a recursion */
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && strcmp(chain[j], chain[i]); j++)
			;
		if (j == i)
			counts_add(&p->children, chain[i], 1);
		for (j = 0; j < i && !same_window(chain, n, i, j); j++)
			;
		if (j < i)
			continue;
		calltrace_key(&key, chain, n, i);
		counts_add(&p->calltrace, key.buf, 1);
	}
	strbuf_release(&key);
}

static void emit(const struct kab_profile *p, const struct counts *c,
		 const char *kind, double min_pct, struct kab_metrics *out)
{
	struct strbuf name = STRBUF_INIT;
	size_t i;

	for (i = 0; i < c->cap; i++) {
		double pct;
		char *dot;

		if (!c->key[i])
			continue;
		pct = 100.0 * c->n[i] / p->samples;
		if (pct < min_pct)
			continue;
		strbuf_reset(&name);
		strbuf_addf(&name, "perf-profile.%s.%s.%s", kind, p->event,
			    c->key[i]);
		/* a chain too long for a metric name loses its far callers */
		while (!strcmp(kind, "calltrace") && name.len > 200 &&
		       (dot = strrchr(name.buf, '.')) &&
		       dot - name.buf > (long)(strlen(kind) +
					       strlen(p->event) + 14)) {
			*dot = '\0';
			name.len = dot - name.buf;
		}
		if (kab_metric_name_valid(name.buf) &&
		    !kab_metrics_find(out, name.buf))
			kab_metrics_add(out, name.buf, pct);
	}
	strbuf_release(&name);
}

void kab_profile_metrics(const struct kab_profile *p, double min_pct,
			 struct kab_metrics *out)
{
	if (!p->samples)
		return;
	emit(p, &p->calltrace, "calltrace", min_pct, out);
	emit(p, &p->children, "children", min_pct, out);
	emit(p, &p->self, "self", min_pct, out);
}

void kab_stacks_add(struct kab_stacks *s, const char *stack, uint64_t n)
{
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 64;
		s->stack = xrealloc(s->stack, s->alloc * sizeof(*s->stack));
		s->n = xrealloc(s->n, s->alloc * sizeof(*s->n));
	}
	s->stack[s->nr] = xstrdup(stack);
	s->n[s->nr++] = n;
}

void kab_stacks_free(struct kab_stacks *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->stack[i]);
	free(s->stack);
	free(s->n);
	free(s->event);
	memset(s, 0, sizeof(*s));
}

static const struct counts *sort_counts;

static int by_count(const void *a, const void *b)
{
	uint64_t x = sort_counts->n[*(const size_t *)a];
	uint64_t y = sort_counts->n[*(const size_t *)b];

	if (x != y)
		return x < y ? 1 : -1;
	return strcmp(sort_counts->key[*(const size_t *)a],
		      sort_counts->key[*(const size_t *)b]);
}

void kab_profile_stacks(const struct kab_profile *p, double min_pct,
			struct kab_stacks *out)
{
	size_t *idx, i, nr = 0;

	out->event = xstrdup(p->event);
	out->samples = p->samples;
	if (!p->samples)
		return;
	idx = xcalloc(p->stacks.nr + 1, sizeof(*idx));
	for (i = 0; i < p->stacks.cap; i++)
		if (p->stacks.key[i] &&
		    100.0 * p->stacks.n[i] / p->samples >= min_pct)
			idx[nr++] = i;
	/* the most sampled first, then by name: the same every time */
	sort_counts = &p->stacks;
	qsort(idx, nr, sizeof(*idx), by_count);
	for (i = 0; i < nr && i < KAB_STACKS_MAX; i++)
		kab_stacks_add(out, p->stacks.key[idx[i]],
			       p->stacks.n[idx[i]]);
	free(idx);
}

void kab_profile_free(struct kab_profile *p)
{
	if (!p)
		return;
	counts_free(&p->stacks);
	counts_free(&p->self);
	counts_free(&p->children);
	counts_free(&p->calltrace);
	free(p->event);
	free(p);
}
