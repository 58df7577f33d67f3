/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ab-ssh.h - switching a test machine between kab ab's sides.
 */
#ifndef KAB_CLI_AB_SSH_H
#define KAB_CLI_AB_SSH_H

#include "cli.h"
#include "../runner/runner.h"

struct ab_ssh_side {
	const char *label;
	char letter;		/* 'a' or 'b', for messages */
	const char *setup;	/* shell command run there, or NULL */
	const char *release;	/* uname -r expected after it, or NULL */
};

/*
 * Run the side's setup there and wait (up to timeout seconds) until
 * the machine answers with the expected release; *release is what it
 * runs.  An exit code, errors printed.
 */
int ab_ssh_switch(struct kab_ssh *s, const struct ab_ssh_side *side,
		  double timeout, char **release);

#endif /* KAB_CLI_AB_SSH_H */
