/* SPDX-License-Identifier: GPL-2.0 */
/*
 * internal.h - shared between kbuild's files, not part of its interface.
 */
#ifndef KAB_KBUILD_INTERNAL_H
#define KAB_KBUILD_INTERNAL_H

#include "kbuild.h"

char *kbuild_name_hash(const char *s);
/* kab's build directory for a tree (created), or NULL with err. */
char *kbuild_dir(const char *tree, const char *cache_dir,
		 struct kab_err *err);

/*
 * Write the final .config for src into cfg (a build directory of its
 * own, so that the real build directory's .config is only replaced
 * when it differs and make stays incremental).
 */
int kbuild_make_config(const char *src, const char *cfg,
		       const struct kab_build_opts *o,
		       const char *const *frags, size_t nr,
		       struct kab_err *err);

/* Is --base a make target (tinyconfig, defconfig...) rather than a file? */
bool kbuild_base_is_target(const char *base);

/* Run make in src with O=out, output to log, progress as asked. */
int kbuild_make(const char *src, const char *out, const char *log,
		const struct kab_build_opts *o, int *objects,
		struct kab_err *err);
/* The make command's CC, and the compiler's first --version line. */
const char *kbuild_cc(void);
char *kbuild_compiler(struct kab_err *err);

#endif /* KAB_KBUILD_INTERNAL_H */
