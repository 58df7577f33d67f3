// SPDX-License-Identifier: GPL-2.0
/*
 * lava-rest.c - a LAVA server's REST API (v0.2), through libcurl:
 * submit a job, ask its state, fetch its log from a line on, cancel it,
 * and ask what the lab has (a device type, its devices' health).
 *
 * The token goes in an Authorization header, never into a URL, a log
 * line or an error.  Every answer is the server's and checked: JSON of
 * the expected shape, strings cleaned where kept, sizes bounded.
 */
#include <curl/curl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define ANSWER_MAX	(256u << 20)

struct answer {
	struct strbuf body;
	bool too_big;
};

static size_t on_data(char *p, size_t size, size_t n, void *arg)
{
	struct answer *a = arg;

	if (a->body.len + size * n > ANSWER_MAX) {
		a->too_big = true;
		return 0;
	}
	strbuf_add(&a->body, p, size * n);
	return size * n;
}

/*
 * Whether tok is a whole part of url (between its delimiters): a short
 * token is a substring of many URLs ("t" of every "http") without being
 * in them.
 */
static bool url_has_word(const char *url, const char *tok)
{
	static const char delim[] = "/:@?#=&.;+";
	size_t n = strlen(tok);
	const char *p;

	if (!n)
		return false;
	for (p = strstr(url, tok); p; p = strstr(p + 1, tok))
		if ((p == url || strchr(delim, p[-1])) &&
		    (!p[n] || strchr(delim, p[n])))
			return true;
	return false;
}

int kab_lava_server_init(struct kab_lava_server *s, const char *url,
			 const char *token, struct kab_err *err)
{
	size_t n;

	memset(s, 0, sizeof(*s));
	/* shown whole up to 100 bytes: the error's point must fit */
	n = strlen(url);
	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))
		return kab_err_set(err, "lava:%.*s%s: give the server's URL, "
				   "lava:https://lava.example.org",
				   (int)(n > 100 ? 100 : n), url,
				   n > 100 ? "..." : "");
	if (!kab_text_ok(url, 1024) || strpbrk(url, " \"'\\<>"))
		return kab_err_set(err, "lava:%.*s%s: not a URL kab takes",
				   (int)(n > 100 ? 100 : n), url,
				   n > 100 ? "..." : "");
	/*
	 * A URL goes into errors, notes and every run's host facts: one
	 * with a user's credentials (user:token@host, ?token=, #...) is
	 * refused without printing it.
	 */
	{
		const char *host = strstr(url, "://") + 3;
		size_t hl = strcspn(host, "/");

		if (memchr(host, '@', hl) || strpbrk(url, "?#") ||
		    (token && url_has_word(url, token)))
			return kab_err_set(err, "the LAVA URL carries "
					   "credentials or a query: give the "
					   "server's bare URL, and the token "
					   "in KAB_LAVA_TOKEN or [lava] token");
	}
	if (token && (!*token || !kab_text_ok(token, 512) ||
		      strpbrk(token, " \t\r\n")))
		return kab_err_set(err, "the LAVA token is not one: set the "
				   "lab's user token in [lava] token or "
				   "KAB_LAVA_TOKEN");
	curl_global_init(CURL_GLOBAL_DEFAULT);
	n = strlen(url);
	/* the API's root, whatever the user gave: .../api/v0.2/ */
	if (strstr(url, "/api/v0.2"))
		s->api = xasprintf("%.*s/", (int)(strstr(url, "/api/v0.2") -
						  url + 9), url);
	else
		s->api = xasprintf("%s%sapi/v0.2/", url,
				   n && url[n - 1] == '/' ? "" : "/");
	s->url = xstrdup(url);
	s->token = token ? xstrdup(token) : NULL;
	return 0;
}

void kab_lava_server_free(struct kab_lava_server *s)
{
	free(s->api);
	free(s->url);
	if (s->token)
		memset(s->token, 0, strlen(s->token));
	free(s->token);
	memset(s, 0, sizeof(*s));
}

/*
 * One request: method GET or POST (body, JSON); *status the HTTP one.
 * -1 with err when the server could not be reached or said too much.
 */
static int request(const struct kab_lava_server *s, const char *path,
		   const char *post, struct answer *a, long *status,
		   struct kab_err *err)
{
	struct curl_slist *h = NULL;
	char *url = xasprintf("%s%s", s->api, path), *auth = NULL;
	char ebuf[CURL_ERROR_SIZE] = "";
	CURL *c = curl_easy_init();
	CURLcode rc;

	if (!c) {
		free(url);
		return kab_err_set(err, "libcurl cannot start");
	}
	h = curl_slist_append(h, "Accept: application/json");
	if (s->token) {
		auth = xasprintf("Authorization: Token %s", s->token);
		h = curl_slist_append(h, auth);
	}
	if (post)
		h = curl_slist_append(h, "Content-Type: application/json");
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, a);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, ebuf);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 20L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 120L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_USERAGENT, "kab/" KAB_VERSION);
	if (post) {
		curl_easy_setopt(c, CURLOPT_POST, 1L);
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, post);
	}
	rc = curl_easy_perform(c);
	*status = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	curl_easy_cleanup(c);
	curl_slist_free_all(h);
	if (auth)
		memset(auth, 0, strlen(auth));
	free(auth);
	free(url);
	if (a->too_big)
		return kab_err_set(err, "LAVA at %s answered more than %u MiB",
				   s->url, ANSWER_MAX >> 20);
	if (rc != CURLE_OK)
		return kab_err_set(err, "cannot reach LAVA at %s: %s: check "
				   "the URL and that the server runs", s->url,
				   *ebuf ? ebuf : curl_easy_strerror(rc));
	return 0;
}

/* The usual answers to a status, as one line naming what to do. */
static int status_error(const struct kab_lava_server *s, long status,
			const char *what, struct kab_err *err)
{
	if (status == 401 || status == 403)
		return kab_err_set(err, "LAVA at %s refused the token (HTTP "
				   "%ld) to %s: set a valid user token in "
				   "[lava] token or KAB_LAVA_TOKEN (the lab's "
				   "admin gives one)", s->url, status, what);
	return kab_err_set(err, "LAVA at %s answered HTTP %ld to %s: is "
			   "it a LAVA server (its API at %s)?", s->url, status,
			   what, s->api);
}

static json_t *get_json(const struct kab_lava_server *s, const char *path,
			const char *what, long *status, struct kab_err *err)
{
	struct answer a = { STRBUF_INIT, false };
	json_error_t jerr;
	json_t *j = NULL;

	if (request(s, path, NULL, &a, status, err))
		goto out;
	if (*status != 200) {
		if (*status != 404)
			status_error(s, *status, what, err);
		goto out;
	}
	j = json_loadb(a.body.buf ? a.body.buf : "", a.body.len, 0, &jerr);
	if (!json_is_object(j)) {
		json_decref(j);
		j = NULL;
		kab_err_set(err, "LAVA at %s answered %s with no JSON "
			    "object", s->url, what);
	}
out:
	strbuf_release(&a.body);
	return j;
}

/* The server's list of the devices of type: its JSON, or NULL with err. */
static json_t *type_devices(const struct kab_lava_server *s,
			    const char *type, struct kab_err *err)
{
	char *path = xasprintf("devices/?device_type=%s&limit=1000", type);
	long status;
	json_t *j = get_json(s, path, "the list of devices", &status, err);

	free(path);
	/* a type the server does not know is a 400 on the filter */
	if (!j && status == 400)
		kab_err_set(err, "LAVA at %s has no device type '%s': give "
			    "--device-type one the lab has (its admin knows)",
			    s->url, type);
	return j;
}

static bool of_type(json_t *d, const char *type)
{
	const char *dt = json_string_value(json_object_get(d, "device_type"));

	return dt && !strcmp(dt, type);
}

static bool usable(json_t *d)
{
	const char *health = json_string_value(json_object_get(d, "health"));

	return health && (!strcmp(health, "Good") ||
			  !strcmp(health, "Unknown"));
}

int kab_lava_check_device_type(const struct kab_lava_server *s,
			       const char *type, struct kab_err *err)
{
	json_t *j = type_devices(s, type, err), *d;
	size_t i, ok = 0, n = 0;

	if (!j)
		return -1;
	json_array_foreach(json_object_get(j, "results"), i, d) {
		if (!of_type(d, type))
			continue;
		n++;
		ok += usable(d);
	}
	json_decref(j);
	if (!n)
		return kab_err_set(err, "LAVA at %s has no device of type "
				   "'%s': give --device-type one the lab has "
				   "(its admin knows)", s->url, type);
	if (!ok)
		return kab_err_set(err, "every device of type '%s' at %s is "
				   "offline (its health is not Good): ask the "
				   "lab's admin, or give another --device-type",
				   type, s->url);
	return 0;
}

/* A tag of the lab: its name, and how many devices of the type carry it. */
struct tag {
	json_int_t id;
	const char *name;
	size_t users;
};

static int tag_cmp(const void *a, const void *b)
{
	json_int_t x = ((const struct tag *)a)->id;
	json_int_t y = ((const struct tag *)b)->id;

	return (x > y) - (x < y);
}

static struct tag *tag_find(struct tag *v, size_t nr, json_int_t id)
{
	struct tag key = { .id = id };

	return nr ? bsearch(&key, v, nr, sizeof(*v), tag_cmp) : NULL;
}

/*
 * The lab's tags sorted by id, each with its users among the devices of
 * type: one pass over the tags and one over the devices, so that a lab
 * of thousands of devices is read in n log n.
 */
static struct tag *tag_table(json_t *tags, json_t *devs, const char *type,
			     size_t *nr)
{
	struct tag *v = NULL, *t;
	json_t *e, *d;
	size_t i, k, n = 0;

	json_array_foreach(json_object_get(tags, "results"), i, e) {
		if (!json_is_integer(json_object_get(e, "id")))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n].id = json_integer_value(json_object_get(e, "id"));
		v[n].name = json_string_value(json_object_get(e, "name"));
		v[n++].users = 0;
	}
	if (n)
		qsort(v, n, sizeof(*v), tag_cmp);
	json_array_foreach(json_object_get(devs, "results"), i, d) {
		if (!of_type(d, type))
			continue;
		/* a device that lists a tag twice uses it once */
		json_array_foreach(json_object_get(d, "tags"), k, e) {
			size_t j;
			bool again = false;

			for (j = 0; j < k && !again; j++)
				again = json_integer_value(json_array_get(
					json_object_get(d, "tags"), j)) ==
					json_integer_value(e);
			t = tag_find(v, n, json_integer_value(e));
			if (t && !again)
				t->users++;
		}
	}
	*nr = n;
	return v;
}

int kab_lava_devices(const struct kab_lava_server *s, const char *type,
		     struct kab_lava_device **out, size_t *nr,
		     struct kab_err *err)
{
	json_t *devs = type_devices(s, type, err), *tags, *d, *t;
	struct tag *tv;
	long status;
	size_t i, k, ntags;

	*out = NULL;
	*nr = 0;
	if (!devs)
		return -1;
	tags = get_json(s, "tags/?limit=1000", "the list of tags", &status,
			err);
	if (!tags) {
		json_decref(devs);
		return -1;
	}
	tv = tag_table(tags, devs, type, &ntags);
	json_array_foreach(json_object_get(devs, "results"), i, d) {
		const char *host = json_string_value(json_object_get(d,
								"hostname"));
		struct kab_lava_device *v;

		if (!of_type(d, type) || !usable(d) || !host ||
		    !kab_name_ok(host, sizeof(v->name) - 1))
			continue;
		*out = xrealloc(*out, (*nr + 1) * sizeof(**out));
		v = &(*out)[(*nr)++];
		memset(v, 0, sizeof(*v));
		snprintf(v->name, sizeof(v->name), "%s", host);
		/* a tag no other device of the type has pins a job to it */
		json_array_foreach(json_object_get(d, "tags"), k, t) {
			struct tag *g = tag_find(tv, ntags,
						 json_integer_value(t));

			if (g && g->name &&
			    kab_name_ok(g->name, sizeof(v->tag) - 1) &&
			    g->users == 1) {
				snprintf(v->tag, sizeof(v->tag), "%s", g->name);
				break;
			}
		}
	}
	free(tv);
	json_decref(tags);
	json_decref(devs);
	return 0;
}

int kab_lava_submit(const struct kab_lava_server *s, const char *yaml,
		    long *id, struct kab_err *err)
{
	struct answer a = { STRBUF_INIT, false };
	json_t *req = json_pack("{s:s}", "definition", yaml), *j, *ids;
	char *body = json_dumps(req, JSON_COMPACT);
	long status;
	int rc = -1;

	json_decref(req);
	if (request(s, "jobs/", body, &a, &status, err))
		goto out;
	j = json_loadb(a.body.buf ? a.body.buf : "", a.body.len, 0, NULL);
	ids = json_object_get(j, "job_ids");
	if (status == 201 && json_is_integer(json_array_get(ids, 0))) {
		json_int_t v = json_integer_value(json_array_get(ids, 0));

		if (v > 0 && v <= LONG_MAX) {
			*id = (long)v;
			rc = 0;
		} else {
			kab_err_set(err, "LAVA at %s answered job id %lld, "
				    "which is no job's: check the server",
				    s->url, (long long)v);
		}
	} else if (status == 400) {
		char *why = kab_text_clean(json_is_string(json_object_get(j,
				"message")) ? json_string_value(
				json_object_get(j, "message")) : "no reason",
					   300);

		kab_err_set(err, "LAVA at %s refused the job: %s", s->url,
			    why);
		free(why);
	} else {
		status_error(s, status, "the job", err);
	}
	json_decref(j);
out:
	free(body);
	strbuf_release(&a.body);
	return rc;
}

int kab_lava_job_state(const struct kab_lava_server *s, long id,
		       struct kab_lava_job_state *st, struct kab_err *err)
{
	char *path = xasprintf("jobs/%ld/", id);
	long status;
	json_t *j = get_json(s, path, "a job's state", &status, err);
	const char *v;

	free(path);
	memset(st, 0, sizeof(*st));
	if (!j) {
		if (status == 404)
			kab_err_set(err, "LAVA at %s has no job %ld", s->url,
				    id);
		return -1;
	}
#define KEEP(field, key)						\
	do {								\
		v = json_string_value(json_object_get(j, key));	\
		if (v && kab_name_ok(v, sizeof(st->field) - 1))		\
			snprintf(st->field, sizeof(st->field), "%s", v);	\
	} while (0)
	KEEP(state, "state");
	KEEP(health, "health");
	KEEP(device, "actual_device");
#undef KEEP
	json_decref(j);
	return 0;
}

int kab_lava_device_worker(const struct kab_lava_server *s,
			   const char *device, char *buf, size_t n,
			   struct kab_err *err)
{
	char *path = xasprintf("devices/%s/", device);
	long status;
	json_t *j = get_json(s, path, "a device", &status, err);
	const char *v;

	free(path);
	buf[0] = '\0';
	if (!j)
		return -1;
	v = json_string_value(json_object_get(j, "worker_host"));
	if (v && kab_name_ok(v, n - 1))
		snprintf(buf, n, "%s", v);
	json_decref(j);
	return 0;
}

long kab_lava_job_log(const struct kab_lava_server *s, long id, long start,
		      struct kab_lava_log *log, struct kab_err *err)
{
	struct answer a = { STRBUF_INIT, false };
	char *path = xasprintf("jobs/%ld/logs/?start=%ld", id, start);
	long status, lines = 0;
	size_t i;

	if (request(s, path, NULL, &a, &status, err)) {
		lines = -1;
		goto out;
	}
	/* no log yet: the job has not started */
	if (status == 404)
		goto out;
	if (status != 200) {
		status_error(s, status, "a job's log", err);
		lines = -1;
		goto out;
	}
	/* whole lines only: a partial last one comes again next time */
	for (i = 0; i < a.body.len; i++)
		if (a.body.buf[i] == '\n')
			lines++;
	if (lines) {
		size_t upto = a.body.len;

		while (upto && a.body.buf[upto - 1] != '\n')
			upto--;
		if (kab_lava_log_feed(log, a.body.buf, upto))
			lines = -2;
	}
out:
	free(path);
	strbuf_release(&a.body);
	return lines;
}

int kab_lava_cancel(const struct kab_lava_server *s, long id,
		    struct kab_err *err)
{
	struct answer a = { STRBUF_INIT, false };
	char *path = xasprintf("jobs/%ld/cancel/", id);
	long status;
	int rc;

	/* LAVA's cancel is a GET */
	rc = request(s, path, NULL, &a, &status, err);
	if (!rc && status != 200 && status != 202)
		rc = status_error(s, status, "a cancel", err);
	free(path);
	strbuf_release(&a.body);
	return rc;
}
