// The libstdc++ functions newer than manylinux_2_28's systems have (GCC 8's
// libstdc++, GLIBCXX_3.4.25) that the reference runtime calls, defined in the
// wheel's copy of it (cmake/ManylinuxLink.cmake; its version script exports
// none of them), so that it needs only what GCC 8's libstdc++ has. The
// runtime is loaded into the process of the extension it runs and must use
// the libstdc++ of the system (which the extension needs too, perhaps a newer
// one), not a copy shipped in the wheel.
#include <new>

namespace std {

// GLIBCXX_3.4.29 (GCC 11): what `new T[n]` calls when n is too large.
void __throw_bad_array_new_length() { throw bad_array_new_length(); }

}  // namespace std
