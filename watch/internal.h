/* SPDX-License-Identifier: GPL-2.0 */
/*
 * internal.h - shared inside the watch library only.
 */
#ifndef KAB_WATCH_INTERNAL_H
#define KAB_WATCH_INTERNAL_H

#include "watch.h"

#endif /* KAB_WATCH_INTERNAL_H */
