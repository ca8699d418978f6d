#!/usr/bin/env python3
"""Writes the source of a large extension for bench/audit_foreign/run.sh: N
exported functions, each calling its own at:: function (an unstable import)
and, every tenth, a stable C shim function. The symbol tables of the built
library hold about 2N names, as a big real extension's do.

  gen_big.py N OUT.cpp
"""
import sys

n = int(sys.argv[1])
with open(sys.argv[2], "w") as f:
    f.write("#include <stdint.h>\n")
    f.write('extern "C" int32_t aoti_torch_get_numel(void*, int64_t*);\n')
    f.write("#if defined(_WIN32)\n#define EXPORT __declspec(dllexport)\n#else\n"
            "#define EXPORT __attribute__((visibility(\"default\")))\n#endif\n")
    f.write("namespace at { namespace native { namespace generated {\n")
    for i in range(n):
        f.write(f"int64_t kernel_{i}(const void* self, int64_t dim, double alpha);\n")
    f.write("}}}\nnamespace big_ext {\n")
    for i in range(n):
        shim = f" int64_t k = 0; aoti_torch_get_numel((void*)t, &k); x += k;" if i % 10 == 0 else ""
        f.write(f"EXPORT int64_t op_{i}(const void* t, int64_t x) {{{shim} "
                f"return at::native::generated::kernel_{i}(t, x, 0.5) + x; }}\n")
    f.write("}\n")
