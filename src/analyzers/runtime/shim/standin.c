/* An empty library whose only purpose is its soname (libtorch.so, libc10.so,
 * ...): loaded before an extension that names that library, it satisfies the
 * dynamic loader without PyTorch, so the extension's imports must all resolve
 * against the reference runtime. See rules/runtime/torch_libraries.tsv. */
