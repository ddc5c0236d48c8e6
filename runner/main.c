/*
 * xrun's entry point: dispatches subcommands from one table (after git.c).
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "xrun: not yet\n");
	return 2;
}
