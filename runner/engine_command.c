/* The command load engine (placeholder until implemented). */
#include "engine.h"

#include <string.h>

static int has_param(const char *key)
{
	(void)key;
	return 0;
}

const struct engine_ops engine_command = {
	.name = "command",
	.has_param = has_param,
};
