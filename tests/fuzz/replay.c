/*
 * replay.c - run the fuzz target over files, without libFuzzer: the seed
 * corpus and every regression file found so far, in every test build
 * (plain and sanitized).  usage: replay FILE...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int n = 0;
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (f == NULL) {
			perror(argv[i]);
			return 1;
		}
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0, r;
		do {
			if (len == cap)
				buf = realloc(buf, cap = cap ? 2 * cap : 65536);
			r = fread(buf + len, 1, cap - len, f);
			len += r;
		} while (r > 0);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		n++;
	}
	printf("replay: %d inputs, no crash\n", n);
	return 0;
}
