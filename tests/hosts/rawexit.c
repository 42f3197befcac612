/*
 * rawexit - a main thread that ends with the raw exit(2) system call, not
 * exit_group: the process lives on until its last thread ends, and then
 * has that thread's status.  Alone (no argument) it exits 3; with an
 * argument, a thread it started ends last, 0.2 s later, with 5.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../progs/burn.h"

DEFINE_BURN(static, spin)

static void *late(void *arg)
{
	(void)arg;
	spin(0.2);
	syscall(SYS_exit, 5);
	return NULL;
}

int main(int argc, char **argv)
{
	(void)argv;
	spin(0.1);
	if (argc > 1) {
		pthread_t t;
		pthread_create(&t, NULL, late, NULL);
	}
	printf("main ends\n");
	fflush(stdout);
	syscall(SYS_exit, 3);
}
