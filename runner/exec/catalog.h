/*
 * The program's catalog for the plan loader: the engines of runner/engine
 * and the built-in probes of runner/host, which the plan layer cannot see
 * (it sits below them).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_CATALOG_H
#define XR_CATALOG_H

#include "plan.h"

const struct plan_catalog *catalog_builtin(void);

#endif
