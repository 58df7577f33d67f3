// SPDX-License-Identifier: GPL-2.0
/*
 * distance.c - how far one word is from another, for "did you mean":
 * a misspelt job key, command, option, label or metric.
 */
#include <stdio.h>
#include <string.h>

#include "common.h"

/* Edits (insert, delete, change, swap two neighbours) from a to b. */
int kab_edit_distance(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b), i, j;
	int d[65][65];

	if (la > 64 || lb > 64)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	}
	return d[la][lb];
}

const char *kab_nearest(const char *word, const char *const *names,
			size_t nr)
{
	const char *best = NULL;
	int best_d = 3, d, len = (int)strlen(word);
	size_t i;
	bool tie = false;

	for (i = 0; i < nr; i++) {
		d = kab_edit_distance(word, names[i]);
		if (d < best_d) {
			best = names[i];
			best_d = d;
			tie = false;
		} else if (d == best_d && best && strcmp(best, names[i])) {
			tie = true;
		}
	}
	return best && !tie && 2 * best_d < len ? best : NULL;
}
