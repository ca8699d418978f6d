/* The template of every stand-in for a PyTorch library an extension names in
 * DT_NEEDED (libtorch.so, libtorch_cpu.so.2.14, libc10.so, ...). It is empty:
 * only its soname matters. It is linked with a long placeholder soname, and
 * the driver loads a copy whose soname is patched to the name the extension
 * needs, so the dynamic loader is satisfied without PyTorch and every symbol
 * the extension imports must come from the reference runtime (the stable
 * ABI). Which names get one: rules/runtime/torch_libraries.tsv. */
int torchabi_standin_marker;
