// preload_probe_local.cc: libtmapgen_probe_local.so, loaded RTLD_LOCAL by preload_probe.cc (a symbol whose
// name starts like the driver's, so the preload library's dlsym looks at the name before passing it on).
extern "C" __attribute__((visibility("default"))) int cu_probe_symbol() { return 42; }
