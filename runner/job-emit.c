// SPDX-License-Identifier: GPL-2.0
/*
 * job-emit.c - a job's parameters written back as a flat lkp job file,
 * by libyaml's emitter: whatever a value holds (a quote, a colon, a
 * '#', a leading '-'), kab reads back the same value.
 */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "internal.h"

static int to_strbuf(void *data, unsigned char *buf, size_t size)
{
	strbuf_add(data, (const char *)buf, size);
	return 1;
}

static int scalar(yaml_emitter_t *e, const char *s)
{
	yaml_event_t ev;

	/* plain when it reads back as itself, else quoted: libyaml's call */
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
				     (int)strlen(s), 1, 1, YAML_ANY_SCALAR_STYLE);
	return yaml_emitter_emit(e, &ev);
}

char *kab_job_yaml(json_t *params, struct kab_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = json_object_size(params), i = 0;
	const char **keys = xcalloc(n ? n : 1, sizeof(*keys)), *k;
	yaml_emitter_t e;
	yaml_event_t ev;
	json_t *v;
	int ok;

	json_object_foreach(params, k, v)
		keys[i++] = k;
	qsort(keys, n, sizeof(*keys), kab_strcmp_ptr);
	yaml_emitter_initialize(&e);
	yaml_emitter_set_output(&e, to_strbuf, &sb);
	yaml_emitter_set_unicode(&e, 1);
	/* one line a parameter, never folded */
	yaml_emitter_set_width(&e, -1);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = yaml_emitter_emit(&e, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	ok = ok && yaml_emitter_emit(&e, &ev);
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
					    YAML_BLOCK_MAPPING_STYLE);
	ok = ok && yaml_emitter_emit(&e, &ev);
	for (i = 0; ok && i < n; i++) {
		const char *val = json_string_value(json_object_get(params,
								    keys[i]));

		ok = scalar(&e, keys[i]) && scalar(&e, val ? val : "");
	}
	yaml_mapping_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&e, &ev);
	yaml_document_end_event_initialize(&ev, 1);
	ok = ok && yaml_emitter_emit(&e, &ev);
	yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&e, &ev);
	if (!ok)
		kab_err_set(err, "writing the job as YAML: %s",
			    e.problem ? e.problem : "libyaml failed");
	yaml_emitter_delete(&e);
	free(keys);
	if (!ok) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}
