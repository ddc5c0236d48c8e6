/* The iperf3 load engine (placeholder until implemented). */
#include "engine.h"

#include <string.h>

static int has_param(const char *key)
{
	(void)key;
	return 0;
}

const struct engine_ops engine_iperf3 = {
	.name = "iperf3",
	.has_param = has_param,
};
