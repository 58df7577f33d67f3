// SPDX-License-Identifier: GPL-2.0
/*
 * bench-power.c - how often kab compare calls a real change of the KPI,
 * by simulation with boot-level random effects (tests/unit/sim.h): the
 * KPI is its own family, tested at its share of the table's level on
 * log boot means; and how often an A/A table of a KPI and 19 other rows
 * shows a false row (the level the table holds as a whole).
 */
#include "../unit/sim.h"

int main(void)
{
	static const double boot_sd[] = { 0.02, 0.05, 0.20 };
	static const size_t plans[][2] = { { 2, 3 }, { 3, 5 }, { 5, 5 },
					   { 10, 3 } };
	static const double shifts[] = { -0.05, -0.10, -0.50 };
	const char *kpi = "sim.m000";
	struct kab_compare_opts o = { .test = KAB_TEST_WELCH, .fdr = 0.05,
				      .noise = 1, .kpi = &kpi, .nr_kpi = 1 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t a, p, s;

	gsl_rng_set(r, 2026);
	printf("  power of the KPI's test (iteration noise 2%%, 1000 "
	       "simulated A/Bs a cell)\n");
	printf("  %-12s %-14s %8s %8s %8s\n", "boot noise", "boots x iters",
	       "-5%", "-10%", "-50%");
	for (a = 0; a < sizeof(boot_sd) / sizeof(boot_sd[0]); a++) {
		for (p = 0; p < sizeof(plans) / sizeof(plans[0]); p++) {
			printf("  %-12.0f %2zu x %-9zu", 100 * boot_sd[a],
			       plans[p][0], plans[p][1]);
			for (s = 0; s < sizeof(shifts) / sizeof(shifts[0]); s++) {
				struct sim_cell c = { boot_sd[a], 0.02,
						      plans[p][0], plans[p][1],
						      shifts[s] };
				struct sim_result res = { 0 };

				sim_run(r, &c, 1, 1000, &o, &res);
				printf(" %7.1f%%", 100.0 * res.called /
				       res.rows);
			}
			printf("\n");
		}
	}
	/* exact mode: boots that repeat, decided to the resolution */
	{
		static const double ex[] = { 0.0025, 0.005, 0.01, 0.02 };
		struct kab_compare_opts e = o;
		double stated = expm1(kab_detectable(2, kab_exact_floor(),
						     0.05, 0.8));

		e.floor = kab_exact_floor();
		e.noise = KAB_EXACT_RESOLUTION;
		printf("\n  exact mode (icount): boot means that repeat, 2 boots "
		       "x 2 iterations, the KPI\n");
		printf("  %-26s", "change");
		for (s = 0; s < (sizeof(ex) / sizeof(ex[0])); s++)
			printf(" %7.2f%%", -100 * ex[s]);
		printf(" %7.2f%% (stated at power 0.8)\n", -100 * stated);
		printf("  %-26s", "called");
		for (s = 0; s <= (sizeof(ex) / sizeof(ex[0])); s++) {
			struct sim_cell c = { 0, 0, 2, 2,
					      s < (sizeof(ex) / sizeof(ex[0])) ? -ex[s] :
					      -stated };
			struct sim_result res = { 0 };

			sim_run(r, &c, 1, 1000, &e, &res);
			printf(" %7.1f%%", 100.0 * res.called / res.rows);
		}
		printf("\n");
	}
	/* kab plan: the power it states against the power its plans reach */
	{
		static const struct { double boot, iter, detect; } pc[] = {
			{ 0.02, 0.02, 0.05 }, { 0.05, 0.01, 0.10 },
			{ 0.10, 0.02, 0.20 }, { 0.005, 0.03, 0.05 },
			{ 0, 0.02, 0.05 },
		};
		size_t i;

		printf("\n  kab plan from pilots of 3 boots x 5 iterations (400 "
		       "simulated pilots a cell;\n  a boot 10 s, an iteration "
		       "3 s): power stated / reached, boots a side\n");
		printf("  %-24s %-24s %-24s\n", "boot / iter noise, detect",
		       "pilot taken as exact", "pilot's uncertainty");
		for (i = 0; i < sizeof(pc) / sizeof(pc[0]); i++) {
			struct sim_cell c = { pc[i].boot, pc[i].iter, 3, 5, 0 };
			struct sim_plans k, u;
			char what[32];

			sim_plan_pilots(r, &c, pc[i].detect, 400, true, &k);
			sim_plan_pilots(r, &c, pc[i].detect, 400, false, &u);
			snprintf(what, sizeof(what), "%.1f%% / %.0f%%, %.0f%%",
				 100 * pc[i].boot, 100 * pc[i].iter,
				 100 * pc[i].detect);
			printf("  %-24s %.2f / %.2f, %5.1f      %.2f / %.2f, "
			       "%5.1f\n", what, k.stated, k.achieved, k.boots,
			       u.stated, u.achieved, u.boots);
		}
	}
	/* A/A: the table's false-alarm rate, a KPI and 19 other rows */
	{
		static const double aa_boot[] = { 0, 0.02, 0.05, 0.20 };
		size_t tables = 0, alarms = 0, kpis = 0;

		printf("\n  A/A tables of 20 rows, the KPI and 19 others (3 boots "
		       "x 5 iterations a side,\n  iteration noise 2%%, 1000 "
		       "simulated tables a cell, --fdr 0.05)\n");
		printf("  %-12s %22s %12s\n", "boot noise",
		       "tables with a false row", "KPI called");
		for (a = 0; a < sizeof(aa_boot) / sizeof(aa_boot[0]); a++) {
			struct sim_cell c = { aa_boot[a], 0.02, 3, 5, 0 };
			struct sim_result res = { 0 };

			sim_run(r, &c, 20, 1000, &o, &res);
			printf("  %-12.0f %21.1f%% %11.1f%%\n", 100 * aa_boot[a],
			       100.0 * res.alarm_tables / res.tables,
			       100.0 * res.kpi_called / res.kpi_rows);
			tables += res.tables;
			alarms += res.alarm_tables;
			kpis += res.kpi_called;
		}
		printf("  %-12s %21.2f%% %11.2f%% (95%% bounds %.2f%%, "
		       "%.2f%%)\n", "all", 100.0 * alarms / tables,
		       100.0 * kpis / tables, 100 * sim_upper(alarms, tables),
		       100 * sim_upper(kpis, tables));
	}
	gsl_rng_free(r);
	return 0;
}
