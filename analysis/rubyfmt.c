// SPDX-License-Identifier: GPL-2.0
/*
 * rubyfmt.c - numbers as Ruby's format("%.2f") and format("%.4g") print
 * them, lkp's table being Ruby's.
 *
 * Ruby's sprintf takes a number's digits from its dtoa (mode 3 for %f:
 * digits after the point; mode 2 for %g: significant digits), which
 * first tries to generate them in floating point with a known error
 * bound eps.  Where that decides, they are correctly rounded, as C's
 * printf's are.  Where the rest after the last digit is within eps of
 * one half, Ruby calls it a tie: an odd last digit goes up at once; an
 * even one stays (2.675, whose double is just below, prints 2.68;
 * 2.345, just above, 2.34), and the digits then come from dtoa's exact
 * path, which keeps a %g's trailing zeros when the exact rest was above
 * one half (5.05e103 as %.2g is 5.0e+103) and drops them below it.
 * Integers take the exact path's small-integer branch, which never
 * drops zeros (70500 as %.2g is 7.0e+04).  This follows those paths;
 * the exact digits come from printf's exact expansion.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

static const double tens[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static const double bigtens[] = { 1e16, 1e32, 1e64, 1e128, 1e256 };

#define QUICK_MAX 14
#define MAX_DIGITS 24

enum quick { QUICK_DONE, QUICK_HALF, QUICK_FAILED };

/* Round digits[0..n) up: trailing 9s go, all 9s become 1 (k + 1). */
static int bump(char *digits, int n, int *k)
{
	while (n && digits[n - 1] == '9')
		n--;
	if (!n) {
		digits[n++] = '1';
		(*k)++;
	} else {
		digits[n - 1]++;
	}
	return n;
}

static int trim_zeros(const char *digits, int n)
{
	while (n > 1 && digits[n - 1] == '0')
		n--;
	return n;
}

/*
 * dtoa's quick path for a > 0 with k its estimate of floor(log10(a))
 * and ilim digits wanted: QUICK_DONE with the digits and *k, or
 * QUICK_HALF (a near half with an even last digit: the exact path
 * decides, Ruby's half set), or QUICK_FAILED.
 */
static enum quick quick(double a, int k, int k_check, int ilim, int ilim1,
			char *digits, int *n, int *kout)
{
	int ieps = 2, i, j, b;
	double u = a, eps;

	if (ilim < 0 || ilim > QUICK_MAX)
		return QUICK_FAILED;
	if (k > 0) {
		double d = tens[k & 0xf];

		for (j = k >> 4, b = 0; j; j >>= 1, b++)
			if (j & 1) {
				ieps++;
				d *= bigtens[b];
			}
		u /= d;
	} else if (k < 0) {
		u *= tens[-k & 0xf];
		for (j = -k >> 4, b = 0; j; j >>= 1, b++)
			if (j & 1) {
				ieps++;
				u *= bigtens[b];
			}
	}
	if (k_check && u < 1. && ilim > 0) {
		if (ilim1 <= 0)
			return QUICK_FAILED;
		ilim = ilim1;
		k--;
		u *= 10.;
		ieps++;
	}
	if (!ilim)
		return QUICK_FAILED;	/* one digit or none: printf's */
	eps = ldexp(ieps * u + 7., -(DBL_MANT_DIG - 1));
	eps *= tens[ilim - 1];
	*n = 0;
	for (i = 1;; i++, u *= 10.) {
		long l = (long)u;

		u -= l;
		if (!u)
			ilim = i;
		digits[(*n)++] = '0' + (char)l;
		if (i == ilim)
			break;
	}
	*kout = k;
	if (u > 0.5 + eps) {
		*n = bump(digits, *n, kout);
	} else if (u < 0.5 - eps) {
		*n = trim_zeros(digits, *n);
	} else if (digits[*n - 1] & 1) {
		*n = bump(digits, *n, kout);	/* Ruby's tie, odd: up */
	} else {
		return QUICK_HALF;
	}
	return QUICK_DONE;
}

/*
 * dtoa's exact path: the exact decimal expansion's first ilim digits,
 * rounded as its small-integer branch (integers) or its general one
 * (with Ruby's half: an even digit stays) rounds them.
 */
static int exact(double a, bool mode3, int prec, bool half, char *digits,
		 int *k)
{
	char x[160];
	int ilim, i, n = 0, nd, cmp_half = 0;
	const char *e;
	bool integer = a == floor(a) && a < 1e15;

	/* d.ddd...e+XX: 101 significant digits, exact for these sizes */
	snprintf(x, sizeof(x), "%.100e", a);
	e = strchr(x, 'e');
	*k = e ? atoi(e + 1) : 0;
	/* the digits without the point */
	memmove(x + 1, x + 2, strlen(x + 2) + 1);
	nd = (int)(strchr(x, 'e') - x);
	ilim = mode3 ? prec + *k + 1 : prec;
	if (ilim <= 0 || ilim > MAX_DIGITS - 2)
		return -1;
	for (i = 0; i < ilim; i++) {
		digits[n++] = i < nd ? x[i] : '0';
		/* the rest is 0: the exact digits end here, as they are */
		if (strspn(x + i + 1, "0") >= (size_t)(nd - i - 1))
			return n;
	}
	/* the rest against one half */
	if (x[ilim] > '5') {
		cmp_half = 1;
	} else if (x[ilim] < '5') {
		cmp_half = -1;
	} else {
		size_t rest = (size_t)(nd - ilim - 1);

		cmp_half = strspn(x + ilim + 1, "0") >= rest ? 0 : 1;
	}
	if (integer)	/* the small-integer branch: exact, zeros kept */
		return cmp_half > 0 || (!cmp_half && (digits[n - 1] & 1)) ?
		       bump(digits, n, k) : n;
	if (cmp_half > 0 || (!cmp_half && (digits[n - 1] & 1))) {
		while (n && digits[n - 1] == '9')
			n--;
		if (!n) {
			digits[n++] = '1';
			(*k)++;
			return n;
		}
		if (!half || (digits[n - 1] & 1))
			digits[n - 1]++;
		return n;
	}
	return trim_zeros(digits, n);
}

/*
 * Ruby's digits of a > 0 (mode 3: prec after the point; else prec
 * significant) and the position of the point; false: printf's.
 */
static bool ruby_digits(double a, bool mode3, int prec, char *digits,
			int *decpt)
{
	int e, k, k_check, ilim, ilim1, n = 0, kq;
	double m = frexp(a, &e), ds;
	enum quick q = QUICK_FAILED;

	/* dtoa's estimate of floor(log10(a)), from the binary exponent */
	ds = (2 * m - 1.5) * 0.289529654602168 + 0.1760912590558 +
	     (e - 1) * 0.301029995663981;
	k = (int)ds;
	if (ds < 0. && ds != k)
		k--;
	k_check = 1;
	if (k >= 0 && k <= 22) {
		if (a < tens[k])
			k--;
		k_check = 0;
	}
	if (k >= 256 || k <= -256)
		return false;
	ilim = mode3 ? prec + k + 1 : prec;
	ilim1 = mode3 ? ilim - 1 : prec;
	q = quick(a, k, k_check, ilim, ilim1, digits, &n, &kq);
	if (q == QUICK_DONE) {
		*decpt = kq + 1;
	} else {
		n = exact(a, mode3, prec, q == QUICK_HALF, digits, &k);
		if (n <= 0)
			return false;
		*decpt = k + 1;
	}
	digits[n] = '\0';
	return true;
}

/* Ruby's %.<prec>f of digits with the point after decpt of them. */
static void fixed(char *out, size_t sz, const char *sign, const char *d,
		  int decpt, int prec)
{
	char body[96];
	int nd = (int)strlen(d), i, p = 0;

	if (decpt <= 0) {
		body[p++] = '0';
	} else {
		for (i = 0; i < decpt && p < 60; i++)
			body[p++] = i < nd ? d[i] : '0';
	}
	if (prec) {
		body[p++] = '.';
		for (i = 0; i < prec && p < 94; i++) {
			int at = decpt + i;

			body[p++] = at >= 0 && at < nd ? d[at] : '0';
		}
	}
	body[p] = '\0';
	snprintf(out, sz, "%s%s", sign, body);
}

/* Ruby's %.<prec>g of digits: every digit dtoa gave, no more. */
static void general(char *out, size_t sz, const char *sign, const char *d,
		    int decpt, int prec)
{
	int nd = (int)strlen(d), x = decpt - 1;

	if (x < -4 || x >= prec) {
		snprintf(out, sz, "%s%c%s%.*s%c%c%02d", sign, d[0],
			 nd > 1 ? "." : "", nd - 1, d + 1, 'e',
			 x < 0 ? '-' : '+', x < 0 ? -x : x);
		return;
	}
	fixed(out, sz, sign, d, decpt, nd > decpt ? nd - decpt : 0);
}

void kab_ruby_format(char *out, size_t sz, double v, char conv, int prec,
		     bool plus)
{
	const char *sign = signbit(v) ? "-" : plus ? "+" : "";
	char digits[MAX_DIGITS], fmt[16];
	int decpt;

	if (!isfinite(v)) {
		snprintf(out, sz, "%s%s", signbit(v) && !isnan(v) ? "-" :
			 plus ? "+" : "", isnan(v) ? "NaN" : "Inf");
		return;
	}
	if (conv == 'g' && !prec)
		prec = 1;
	if (v == 0 || !ruby_digits(fabs(v), conv == 'f', prec, digits,
				   &decpt)) {
		snprintf(fmt, sizeof(fmt), "%%%s.%d%c", plus ? "+" : "", prec,
			 conv);
		snprintf(out, sz, fmt, v);
		return;
	}
	if (conv == 'f')
		fixed(out, sz, sign, digits, decpt, prec);
	else
		general(out, sz, sign, digits, decpt, prec);
}
