/* Placeholder for cmd_lab until its module lands. */
#include <stdio.h>

#include "cmd.h"

int cmd_lab(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "xrun: '%s' is not implemented yet\n", argv[0]);
	return 2;
}
