#ifndef BLAZEKIT_COPENBLAS_SHIM_H
#define BLAZEKIT_COPENBLAS_SHIM_H
#include <cblas.h>

/* Exported by Debian's DYNAMIC_ARCH OpenBLAS build but not declared in cblas.h.
   Used to re-select the kernel core when OpenBLAS misdetects the CPU (see OpenBLASSetup.swift). */
void gotoblas_dynamic_init(void);
void gotoblas_dynamic_quit(void);
char *openblas_get_corename(void);
void openblas_set_num_threads(int num_threads);
#endif
