// SPDX-License-Identifier: GPL-2.0
/*
 * lava-job.c - what kab hands LAVA: a job definition per boot and, for
 * the dispatcher on this machine (lava-run), a qemu device dictionary.
 *
 * Both are built as JSON trees and written by libyaml's emitter, so a
 * value holding a colon, a quote or a '#' reads back as itself.  The
 * job deploys kab's kernel and initramfs and boots them; its test
 * action is a monitor (no shell in the guest: the agent is /init) that
 * waits for the agent's last line.  The records come back on the
 * console, in the job's log.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "internal.h"

static int to_strbuf(void *data, unsigned char *buf, size_t size)
{
	strbuf_add(data, (const char *)buf, size);
	return 1;
}

/* Would a plain scalar s read back as something other than a string? */
static bool needs_quotes(const char *s)
{
	static const char *const words[] = {
		"true", "false", "yes", "no", "on", "off", "null", "y", "n",
	};
	char *end;
	size_t i;

	if (!*s || !strcmp(s, "~"))
		return true;
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcasecmp(s, words[i]))
			return true;
	strtod(s, &end);
	return !*end || isspace((unsigned char)*s);
}

static int emit_scalar(yaml_emitter_t *e, const char *s, bool string)
{
	yaml_event_t ev;
	bool quote = string && needs_quotes(s);

	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
				     (int)strlen(s), !quote, 1,
				     quote ? YAML_DOUBLE_QUOTED_SCALAR_STYLE :
					     YAML_ANY_SCALAR_STYLE);
	return yaml_emitter_emit(e, &ev);
}

static int emit(yaml_emitter_t *e, json_t *v)
{
	yaml_event_t ev;
	const char *k;
	json_t *x;
	size_t i;
	char num[64];

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
						    YAML_BLOCK_MAPPING_STYLE);
		if (!yaml_emitter_emit(e, &ev))
			return 0;
		json_object_foreach(v, k, x)
			if (!emit_scalar(e, k, true) || !emit(e, x))
				return 0;
		yaml_mapping_end_event_initialize(&ev);
		return yaml_emitter_emit(e, &ev);
	case JSON_ARRAY:
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
						     YAML_BLOCK_SEQUENCE_STYLE);
		if (!yaml_emitter_emit(e, &ev))
			return 0;
		json_array_foreach(v, i, x)
			if (!emit(e, x))
				return 0;
		yaml_sequence_end_event_initialize(&ev);
		return yaml_emitter_emit(e, &ev);
	case JSON_STRING:
		return emit_scalar(e, json_string_value(v), true);
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
			 json_integer_value(v));
		return emit_scalar(e, num, false);
	case JSON_REAL:
		snprintf(num, sizeof(num), "%.17g", json_real_value(v));
		return emit_scalar(e, num, false);
	case JSON_TRUE:
		return emit_scalar(e, "true", false);
	case JSON_FALSE:
		return emit_scalar(e, "false", false);
	case JSON_NULL:
		return emit_scalar(e, "null", false);
	}
	return 0;
}

char *kab_yaml_from_json(json_t *root, struct kab_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	yaml_emitter_t e;
	yaml_event_t ev;
	int ok;

	yaml_emitter_initialize(&e);
	yaml_emitter_set_output(&e, to_strbuf, &sb);
	yaml_emitter_set_unicode(&e, 1);
	yaml_emitter_set_width(&e, -1);
	yaml_emitter_set_indent(&e, 2);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = yaml_emitter_emit(&e, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	ok = ok && yaml_emitter_emit(&e, &ev);
	ok = ok && emit(&e, root);
	yaml_document_end_event_initialize(&ev, 1);
	ok = ok && yaml_emitter_emit(&e, &ev);
	yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&e, &ev);
	if (!ok)
		kab_err_set(err, "writing YAML: %s",
			    e.problem ? e.problem : "libyaml failed");
	yaml_emitter_delete(&e);
	if (!ok) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

static json_t *minutes(double seconds)
{
	double m = ceil(seconds / 60);

	return json_pack("{s:I}", "minutes", (json_int_t)(m < 1 ? 1 : m));
}

/*
 * What may go into a kernel command line that LAVA puts between double
 * quotes in a shell-split command and through Python's str.format:
 * printable ASCII but for quotes, backslashes, $, ` and braces.
 */
int kab_lava_cmdline_check(const char *s, struct kab_err *err)
{
	const char *p;

	for (p = s; *p; p++)
		if (*p < ' ' || *p > '~' || strchr("\"'\\$`{}", *p))
			return kab_err_set(err, "--cmdline: '%c' cannot go to "
					   "LAVA, which quotes the kernel's "
					   "command line for a shell: leave "
					   "out quotes, backslashes, $, ` and "
					   "braces", *p < ' ' || *p > '~' ?
					   '?' : *p);
	return 0;
}

const char *kab_lava_end_pattern = "kab-agent: (done|the job failed), "
				   "powering off";

json_t *kab_lava_job(const struct kab_lava_job_opts *o)
{
	double boot = o->boot_seconds > 0 ? o->boot_seconds : 300;
	double test = o->test_seconds > 0 ? o->test_seconds : 600;
	char *append = xasprintf("%s -- %s", o->kernel_args, o->agent_args);
	bool tftp = o->method && !strcmp(o->method, "tftp");
	json_t *job, *deploy, *bootact, *testact;

	job = json_pack("{s:s, s:s, s:s, s:s}", "job_name", o->name,
			"device_type", o->device_type, "priority", "medium",
			"visibility", "public");
	/* a tag only one device has: the job goes to that device */
	if (o->tag && *o->tag)
		json_object_set_new(job, "tags", json_pack("[s]", o->tag));
	json_object_set_new(job, "timeouts",
			    json_pack("{s:o, s:o, s:o}", "job",
				      minutes(boot + test + 600), "action",
				      minutes(boot + test), "connection",
				      minutes(120)));
	if (tftp) {
		/* an x86 board: the kernel and ramdisk over TFTP, iPXE */
		json_object_set_new(job, "context",
				    json_pack("{s:s}", "extra_kernel_args",
					      append));
		deploy = json_pack("{s:s, s:o, s:{s:s, s:s}, s:{s:s, s:b, "
				   "s:b}}", "to", "tftp", "timeout",
				   minutes(600), "kernel", "url",
				   o->kernel_url, "type", "image", "ramdisk",
				   "url", o->ramdisk_url, "install_modules", 0,
				   "install_overlay", 0);
		bootact = json_pack("{s:s, s:s, s:o}", "method", "ipxe",
				    "commands", "ramdisk", "timeout",
				    minutes(boot));
	} else {
		char *karg = xasprintf("-kernel {kernel} -append \"%s\"",
				       append);

		json_object_set_new(job, "context",
				    json_pack("{s:s}", "arch", "x86_64"));
		deploy = json_pack("{s:s, s:o, s:{s:{s:s, s:s}, s:{s:s, "
				   "s:s}}}", "to", "tmpfs", "timeout",
				   minutes(600), "images", "kernel",
				   "image_arg", karg, "url", o->kernel_url,
				   "ramdisk", "image_arg", "-initrd {ramdisk}",
				   "url", o->ramdisk_url);
		bootact = json_pack("{s:s, s:s, s:o}", "method", "qemu",
				    "media", "tmpfs", "timeout",
				    minutes(boot));
		free(karg);
	}
	testact = json_pack("{s:o, s:[{s:s, s:s, s:s, s:s}]}", "timeout",
			    minutes(test), "monitors", "name", "kab-agent",
			    "start", "kab-agent: ", "end",
			    kab_lava_end_pattern, "pattern",
			    "kab-agent: (?P<result>fail)ed (?P<test_case_id>"
			    "job)");
	json_object_set_new(job, "actions",
			    json_pack("[{s:o}, {s:o}, {s:o}]", "deploy", deploy,
				      "boot", bootact, "test", testact));
	free(append);
	return job;
}

json_t *kab_lava_qemu_device(const struct kab_lava_device_opts *d)
{
	char *mem = xasprintf("-m %s", d->mem), *smp;
	char *accel = xasprintf("-accel %s", d->accel);
	json_t *dev;

	smp = xasprintf("-smp %d", d->smp);
	dev = json_pack(
		"{s:[], s:{}, s:{s:{s:{s:{}, s:{}}, s:{s:{}}}, "
		"s:{s:{s:{}}, s:{s:{s:{s:s, s:{s:s, s:s}, "
		"s:[s, s, s, s, s, s]}}}}}, s:[s], s:{s:{}, s:{}}, "
		"s:{s:s, s:s, s:s, s:s, s:i, s:i, s:{s:s, s:s, s:s}}}",
		"device_info", "parameters", "actions", "deploy",
		"connections", "serial", "lxc", "methods", "image", "boot",
		"connections", "serial", "methods", "qemu", "parameters",
		"command", d->qemu, "boot_options", "root", "/dev/ram0",
		"console", "ttyS0,115200", "options", "-cpu max", mem, smp,
		"-nographic", "-no-reboot", accel,
		"available_architectures", "x86_64", "timeouts", "actions",
		"connections", "constants", "kernel-start-message",
		"Linux version [0-9]", "shutdown-message",
		"reboot: Power down", "default-shell-prompt", "kab-agent: ",
		"spawn_maxread", "4092", "failure_retry", 1, "boot_retry", 0,
		"posix", "lava_test_sh_cmd", "/bin/sh",
		"lava_test_results_dir", "/lava-%s", "lava_test_shell_file",
		"~/.bashrc");
	free(mem);
	free(smp);
	free(accel);
	return dev;
}
