// SPDX-License-Identifier: GPL-2.0
/*
 * readable.c - numbers for people: thousands separated, no exponent
 * short of 1e15, and axis ticks at 1, 2 or 5 times a power of ten.
 * What markdown, HTML and SVG print (the text tables print lkp's
 * digits instead).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"

/* Digits after the point that show v with about 4 significant digits. */
static int decimals_for(double v)
{
	double a = fabs(v);

	if (a == 0 || a >= 100)
		return 0;
	if (a >= 10)
		return 1;
	if (a >= 1)
		return 2;
	/* 0.0123 -> 4: three significant digits */
	return (int)fmin(12, 2 - floor(log10(a)));
}

void kab_fmt_readable_dec(char *out, size_t sz, double v, int dec)
{
	char digits[64], *dot;
	size_t len, lead, i, o = 0;
	int neg;

	if (!sz)
		return;
	if (!isfinite(v) || fabs(v) >= 1e15) {
		snprintf(out, sz, isfinite(v) ? "%.3g" : "%g", v);
		return;
	}
	if (dec < 0)
		dec = decimals_for(v);
	snprintf(digits, sizeof(digits), "%.*f", dec, fabs(v));
	neg = v < 0 && strspn(digits, "0.") != strlen(digits);
	dot = strchr(digits, '.');
	lead = dot ? (size_t)(dot - digits) : strlen(digits);
	len = strlen(digits);
	if (neg && o + 1 < sz)
		out[o++] = '-';
	for (i = 0; i < len && o + 1 < sz; i++) {
		/* a comma before each group of three whole digits */
		if (i && i < lead && (lead - i) % 3 == 0) {
			out[o++] = ',';
			if (o + 1 >= sz)
				break;
		}
		out[o++] = digits[i];
	}
	out[o] = '\0';
}

void kab_fmt_readable(char *out, size_t sz, double v)
{
	kab_fmt_readable_dec(out, sz, v, -1);
}

size_t kab_nice_ticks(double lo, double hi, size_t max, double *ticks,
		      int *dec)
{
	double range = hi - lo, raw, mag, f, step, t;
	size_t n = 0;

	*dec = 0;
	if (!isfinite(lo) || !isfinite(hi) || max < 2)
		return 0;
	if (range <= 0) {
		ticks[0] = lo;
		*dec = -1;
		return 1;
	}
	raw = range / (double)(max - 1);
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
	/* a step of 0.05 needs two decimals, of 20 none */
	*dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	for (t = ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9 &&
	     n < max; t += step)
		ticks[n++] = fabs(t) < step * 1e-9 ? 0 : t;
	return n;
}
