// The driver end to end on the fixture extensions: each wrong fixture must
// produce exactly its finding (and nothing else), the correct one none, and
// crashes, hangs and missing symbols must become findings, not failures.
#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <regex>

#include "analyzers/runtime/driver/extension_imports.h"
#include "analyzers/runtime/driver/standins.h"
#include "common/input_error.h"
#include "inputs/rules_source.h"
#include "driver_test_support.h"

namespace {

using runtime_test::run;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::IsSupersetOf;

// Addresses differ between runs; everything else in a message is stable.
std::vector<std::string> normalized(const runtime_test::Run& r) {
  std::vector<std::string> out;
  for (const auto& l : r.lines) out.push_back(std::regex_replace(l, std::regex("0x[0-9a-f]{6,}"), "0x…"));
  return out;
}

TEST(RuntimeDriver, CorrectExtensionPassesItsCases) {
  auto r = run("good_ops", "good_ops.yaml");
  EXPECT_THAT(r.lines, IsEmpty());
  EXPECT_EQ(r.subject().verdict, "PASSED");
  EXPECT_EQ(r.fact("calls"), "10 cases: 10 passed, 0 failed");
  EXPECT_EQ(r.fact("extension_build_version"), "2.10");
  EXPECT_EQ(r.fact("op good::scale_"), "scale_(Tensor(a!) self, float factor) -> Tensor(a!) [CPU]");
  EXPECT_EQ(r.fact("op good::dtype_name"), "dtype_name(Tensor x) -> str [CompositeExplicitAutograd]");
  EXPECT_THAT(r.fact("library STABLE_TORCH_LIBRARY_IMPL(good, CPU)"), HasSubstr("good_ops.cpp:"));
  EXPECT_EQ(r.fact("runtime"), "torchabi reference runtime behaving as PyTorch 2.14");
}

TEST(RuntimeDriver, CorrectExtensionPassesSmokeCalls) {
  auto r = run("good_ops");
  EXPECT_THAT(r.lines, IsEmpty());
  EXPECT_EQ(r.fact("calls"), "7 smoke calls: 7 passed, 0 failed");
  EXPECT_EQ(r.fact("smoke good::row_sum"), "passed (smoke, float32 inputs)");
}

TEST(RuntimeDriver, Leak) {
  EXPECT_THAT(run("bad_leak").lines,
              ElementsAre("runtime-handle-leak | bad_leak::identity | smoke call: bad_leak::identity: tensor handle #2 "
                          "(aoti_torch_empty_strided, float32[6]) was neither released nor returned"));
}

TEST(RuntimeDriver, DoubleFree) {
  EXPECT_THAT(run("bad_double_free").lines,
              ElementsAre("runtime-handle-double-free | bad_double_free::identity | smoke call: released tensor handle "
                          "#1 (argument 'x' of bad_double_free::identity) a second time (aoti_torch_delete_tensor_object "
                          "released it first) (in aoti_torch_delete_tensor_object)"));
}

TEST(RuntimeDriver, UseAfterFree) {
  EXPECT_THAT(run("bad_use_after_free").lines,
              ElementsAre("runtime-handle-use-after-free | bad_use_after_free::identity | smoke call: used tensor handle "
                          "#1 (argument 'x' of bad_use_after_free::identity) after aoti_torch_delete_tensor_object "
                          "released it (in aoti_torch_get_dim)"));
}

TEST(RuntimeDriver, InvalidHandle) {
  EXPECT_THAT(normalized(run("bad_invalid_handle")),
              ElementsAre("runtime-invalid-handle | bad_invalid_handle::numel | smoke call: passed 0x…, which is not a "
                          "tensor handle (in aoti_torch_get_numel)",
                          "runtime-kernel-exception | bad_invalid_handle::numel | smoke call: the kernel of "
                          "bad_invalid_handle::numel threw std::runtime_error: aoti_torch_get_numel failed"));
}

TEST(RuntimeDriver, ExtraReturn) {
  EXPECT_THAT(run("bad_extra_return").lines,
              ElementsAre("runtime-extra-return | bad_extra_return::first | smoke call: bad_extra_return::first: the "
                          "kernel wrote stack slot 1 (tensor handle #4 (aoti_torch_new_tensor_handle, float32[2, 3])), "
                          "but the schema declares 1 return: libtorch never reads it"));
}

TEST(RuntimeDriver, MissingReturn) {
  EXPECT_THAT(run("bad_missing_return").lines,
              ElementsAre("runtime-missing-return | bad_missing_return::twice | smoke call: bad_missing_return::twice: "
                          "return 1 (Tensor) was not written: the schema declares 2 returns"));
}

TEST(RuntimeDriver, ReadPastNumArgsHitsTheGuardPage) {
  auto r = run("bad_read_past_args");
  EXPECT_THAT(r.lines, ElementsAre("runtime-stack-out-of-bounds | bad_read_past_args::scaled | smoke call: the kernel "
                                   "of bad_read_past_args::scaled read stack slot 1, past the end of its stack of 1 "
                                   "slot (max(num_args=1, num_outputs=1))"));
  EXPECT_THAT(r.report.findings[0].notes, ElementsAre("the process crashed with SIGSEGV (segmentation fault)"));
  EXPECT_EQ(r.subject().verdict, "FAILED");
}

TEST(RuntimeDriver, ReturnType) {
  EXPECT_THAT(run("bad_return_type").lines,
              ElementsAre("runtime-return-type | bad_return_type::numel | smoke call: bad_return_type::numel: return 0 "
                          "(int) holds tensor handle #2 (aoti_torch_new_tensor_handle, float32[2, 3]), not a value of "
                          "type int (which is therefore never released)"));
}

TEST(RuntimeDriver, WrongDtypeAgainstTheCase) {
  auto r = run("bad_wrong_dtype", "bad/wrong_dtype.yaml");
  EXPECT_THAT(r.lines, ElementsAre("runtime-output-mismatch | bad_wrong_dtype::doubled | case 'doubles_float32': "
                                   "bad_wrong_dtype::doubled: output 0 has dtype float64, expected float32"));
  EXPECT_EQ(r.fact("case doubles_float32"), "failed");
}

TEST(RuntimeDriver, Throws) {
  auto r = run("bad_throws", "bad/throws.yaml");
  EXPECT_THAT(r.lines, ElementsAre("runtime-kernel-exception | bad_throws::always | case 'always_throws': the kernel of "
                                   "bad_throws::always threw std::runtime_error: bad_throws::always is not ready yet"));
  EXPECT_THAT(r.report.findings[0].notes,
              ElementsAre("a Python caller of torch 2.14 gets RuntimeError: bad_throws::always is not ready yet"));
  EXPECT_EQ(r.fact("python error always_throws"), "RuntimeError: bad_throws::always is not ready yet");
}

// What a Python caller of real torch gets for each kind of exception
// (rules/runtime/kernel_exceptions.tsv, checked in the sid chroot by
// scripts/test-against-torch.sh): the cases expect an error, so only a
// non-std exception is a finding; the Python error is a fact of each case.
TEST(RuntimeDriver, ExceptionKindsAsPythonSeesThem) {
  auto r = run("bad_throws_kinds", "bad/throws_kinds.yaml");
  EXPECT_EQ(r.fact("python error runtime_error"), "RuntimeError: runtime_error from the kernel");
  EXPECT_EQ(r.fact("python error invalid_argument"), "ValueError: invalid_argument from the kernel");
  EXPECT_EQ(r.fact("python error out_of_range"), "IndexError: out_of_range from the kernel");
  EXPECT_EQ(r.fact("python error user_out_of_range"), "IndexError: BadIndex from the kernel");
  EXPECT_EQ(r.fact("python error overflow_error"), "OverflowError: overflow_error from the kernel");
  EXPECT_EQ(r.fact("python error underflow_error"), "RuntimeError: underflow_error from the kernel");
  EXPECT_EQ(r.fact("python error bad_alloc"), "MemoryError: std::bad_alloc");
  EXPECT_EQ(r.fact("python error user_exception"), "RuntimeError: a PortError from the kernel");
  EXPECT_EQ(r.fact("python error int_value"), "RuntimeError: Caught an unknown exception!");
  EXPECT_EQ(r.fact("python error nested_only"), "RuntimeError: Caught an unknown nested exception!");
  EXPECT_EQ(r.fact("case runtime_error"), "passed");
  EXPECT_EQ(r.fact("case int_value"), "failed");
  EXPECT_THAT(r.lines, IsSupersetOf({"runtime-non-std-exception | bad_throws_kinds::int_value | case 'int_value': the "
                                     "kernel of bad_throws_kinds::int_value threw int, which is not a std::exception: "
                                     "a Python caller of torch 2.14 gets RuntimeError: Caught an unknown exception!, "
                                     "without the kernel's message"}));
  std::vector<std::string> rules;
  for (const auto& f : r.report.findings) rules.push_back(f.rule + " " + f.location.symbol);
  EXPECT_THAT(rules, ElementsAre("runtime-non-std-exception bad_throws_kinds::int_value",
                                 "runtime-non-std-exception bad_throws_kinds::c_string",
                                 "runtime-non-std-exception bad_throws_kinds::user_struct",
                                 "runtime-non-std-exception bad_throws_kinds::nested_only"));
}

TEST(RuntimeDriver, UnexpectedInvalidArgumentIsAValueError) {
  auto r = run("bad_throws_kinds");  // smoke: every op throws
  bool seen = false;
  for (const auto& f : r.report.findings) {
    if (f.location.symbol != "bad_throws_kinds::invalid_argument") continue;
    seen = true;
    EXPECT_EQ(f.rule, "runtime-kernel-exception");
    EXPECT_EQ(f.message, "smoke call: the kernel of bad_throws_kinds::invalid_argument threw std::invalid_argument: "
                         "invalid_argument from the kernel");
    EXPECT_THAT(f.notes, ElementsAre("a Python caller of torch 2.14 gets ValueError: invalid_argument from the kernel"));
  }
  EXPECT_TRUE(seen);
  EXPECT_EQ(r.fact("python error smoke bad_throws_kinds::c_string"), "RuntimeError: Caught an unknown exception!");
}

TEST(RuntimeDriver, ExpectedErrorTextIsWhatPythonSees) {
  // A case file that expects the message of a non-std exception matches
  // pybind11's text, and still reports the lost message.
  auto r = run("bad_throws_kinds", "bad/throws_kinds.yaml", "2.12");
  EXPECT_EQ(r.fact("python error c_string"), "RuntimeError: Caught an unknown exception!");
  for (const auto& f : r.report.findings) EXPECT_THAT(f.message, HasSubstr("torch 2.12 gets RuntimeError"));
}

// TORCH_DYNAMIC_VERSION_CALL: the extension looks newer functions up by name;
// the release's runtime library has them or not, and `run -v` says which.
TEST(RuntimeDriver, LookupsByNameOnTheNewestRelease) {
  auto r = run("dynamic_lookup");
  EXPECT_THAT(r.lines, IsEmpty());
  EXPECT_EQ(r.fact("looked up by name torch_exception_get_what (2.13)"), "present in the emulated 2.14");
  EXPECT_EQ(r.fact("looked up by name torch_has_storage (2.14)"), "present in the emulated 2.14");
}

TEST(RuntimeDriver, LookupsByNameOnAnOlderRelease) {
  auto r = run("dynamic_lookup", "", "2.13");
  EXPECT_THAT(r.lines, IsEmpty());
  EXPECT_EQ(r.fact("looked up by name torch_exception_get_what (2.13)"), "present in the emulated 2.13");
  EXPECT_EQ(r.fact("looked up by name torch_has_storage (2.14)"), "absent in 2.13: the extension takes its fallback");
  // error_text_length checks aoti_torch_abi_version() first, as the macro does:
  // below 2.13 it does not look the name up, which its strings still tell.
  auto old = run("dynamic_lookup", "", "2.12");
  EXPECT_EQ(old.fact("looked up by name torch_exception_get_what (2.13)"),
            "absent in 2.12: the extension takes its fallback (named in its strings; the calls run here did not look "
            "it up)");
}

TEST(RuntimeDriver, ThrowInSmokeModeIsANote) {
  auto r = run("bad_throws");
  ASSERT_EQ(r.report.findings.size(), 1u);
  EXPECT_EQ(r.report.findings[0].severity, torchabi::findings::Severity::Note);
  EXPECT_EQ(r.fact("smoke bad_throws::always"), "inputs rejected (smoke)");
}

TEST(RuntimeDriver, SegfaultBecomesAFindingWithTheExtensionsOutput) {
  auto r = run("bad_segfault");
  EXPECT_THAT(r.lines, ElementsAre("runtime-kernel-crash | bad_segfault::crash | smoke call: the kernel of "
                                   "bad_segfault::crash crashed with SIGSEGV (segmentation fault)"));
  EXPECT_THAT(r.report.findings[0].notes,
              ElementsAre("faulting address 0x0",
                          "extension output: bad_segfault: about to write through a null pointer"));
}

TEST(RuntimeDriver, HangIsKilledAtTheTimeLimit) {
  auto r = run("bad_hang", "", "", 0.3);
  EXPECT_THAT(r.lines, ElementsAre("runtime-kernel-timeout | bad_hang::spin | smoke call: the kernel of bad_hang::spin "
                                   "did not return within 0.3 s; the child was killed"));
  EXPECT_EQ(r.fact("smoke bad_hang::spin"), "timed out");
}

TEST(RuntimeDriver, InplaceAlias) {
  EXPECT_THAT(run("bad_inplace_alias").lines,
              ElementsAre("runtime-inplace-alias | bad_inplace::add_one_ | smoke call: bad_inplace::add_one_: return 0 "
                          "is declared Tensor(a!) and must be argument 'self' itself, but the kernel returned a "
                          "different tensor (float32[6])",
                          "runtime-mutation-never-seen | bad_inplace::add_one_ | bad_inplace::add_one_ declares "
                          "argument 'self' mutable (`(a!)`), but its only completed call did not change it"));
}

// The opcheck-class checks; scripts/against-torch/opcheck.py holds them to
// real torch.library.opcheck on every fixture op.
TEST(RuntimeDriver, UndeclaredMutationNamesTheArgumentAndTheElement) {
  EXPECT_THAT(run("bad_undeclared_mutation").lines,
              ElementsAre("runtime-undeclared-mutation | bad_mutation::scatter_add_along_first_dim | smoke call: "
                          "bad_mutation::scatter_add_along_first_dim wrote its input argument 'Dst' (element [0, 1] "
                          "changed from -0.5 to 0), but the schema declares it `Tensor Dst`, not mutable: "
                          "torch.compile and autograd assume the input is unchanged"));
}

TEST(RuntimeDriver, ReturningAWrittenInputIsAnUndeclaredMutationAndAlias) {
  EXPECT_THAT(run("bad_undeclared_alias").lines,
              ElementsAre(HasSubstr("runtime-undeclared-mutation | bad_alias::double_into | smoke call: "
                                    "bad_alias::double_into wrote its input argument 'OUT'"),
                          "runtime-undeclared-alias | bad_alias::double_into | smoke call: bad_alias::double_into: "
                          "return 0 shares storage with its input argument 'OUT' (the kernel returned the input or a "
                          "view of it), but the schema does not declare the alias"));
}

TEST(RuntimeDriver, MutationsAreCheckedOnCasesToo) {
  auto r = run("bad_undeclared_mutation", "../../tests/unit/runtime/data/undeclared_mutation.yaml");
  EXPECT_THAT(r.lines, ElementsAre(HasSubstr("case 'adds_into_dst': bad_mutation::scatter_add_along_first_dim wrote "
                                             "its input argument 'Dst' (element [1] changed from 10 to 11)")));
}

TEST(RuntimeDriver, DeclaredAliasThatDoesNotAliasAndUnwrittenMutable) {
  EXPECT_THAT(run("bad_alias_not_aliasing").lines,
              ElementsAre("runtime-alias-not-aliasing | bad_view::flat | smoke call: bad_view::flat: return 0 is "
                          "declared `Tensor(a)`, a view of argument 'self', but this call returned new memory",
                          "runtime-mutation-never-seen | bad_view::flat | bad_view::flat declares argument 'other' "
                          "mutable (`(a!)`), but its only completed call did not change it"));
}

TEST(RuntimeDriver, ViewOpReturningItsInputItself) {
  EXPECT_THAT(run("bad_returns_input").lines,
              ElementsAre("runtime-returns-input | bad_returns_input::same | smoke call: bad_returns_input::same: "
                          "return 0 is its input argument 'x' itself, not a view of it; only an in-place op "
                          "(`Tensor(a!)`) may return an input directly"));
}

TEST(RuntimeDriver, DeclaredEffectsAreClean) {
  EXPECT_THAT(run("declared_effects").lines, IsEmpty());
  EXPECT_EQ(run("declared_effects").fact("calls"), "3 smoke calls: 3 passed, 0 failed");
}

TEST(RuntimeDriver, Unimplemented) {
  EXPECT_THAT(run("bad_unimplemented").lines,
              ElementsAre("runtime-unimplemented-shim | bad_unimplemented::conv | smoke call: called "
                          "aoti_torch_convolution, which the reference runtime does not implement",
                          "runtime-kernel-exception | bad_unimplemented::conv | smoke call: the kernel of "
                          "bad_unimplemented::conv threw std::runtime_error: aoti_torch_convolution failed"));
}

// The handles a kernel puts on a dispatcher call's stack are libtorch's from
// the call on, even when the op then fails: an ATen op the runtime does not
// implement must not make them look leaked.
TEST(RuntimeDriver, UnimplementedAtenOpTakesOverItsArgumentsLikeLibtorch) {
  EXPECT_THAT(run("bad_unimplemented_aten").lines,
              ElementsAre("runtime-unimplemented-shim | bad_unimplemented_aten::lgamma | smoke call: called "
                          "aten::lgamma through torch_call_dispatcher, which the reference runtime does not implement "
                          "(it took over the arguments, as libtorch does)",
                          "runtime-kernel-exception | bad_unimplemented_aten::lgamma | smoke call: the kernel of "
                          "bad_unimplemented_aten::lgamma threw std::runtime_error: aten::lgamma failed"));
}

TEST(RuntimeDriver, SecondLibraryForANamespace) {
  auto r = run("bad_registration");
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_THAT(r.lines[0], HasSubstr("runtime-bad-registration |  | while loading: a second "
                                    "STABLE_TORCH_LIBRARY(bad_registration, ...) ("));
  EXPECT_THAT(r.lines[0], HasSubstr("PyTorch allows one per namespace and fails this one, and StableLibrary goes "
                                    "on with a handle that was never set, so loading crashes in libtorch; use "
                                    "STABLE_TORCH_LIBRARY_FRAGMENT (in aoti_torch_library_init_def)"));
  EXPECT_EQ(r.subject().verdict, "FAILED");
}

TEST(RuntimeDriver, Unconvertible) {
  EXPECT_THAT(run("bad_unconvertible").lines,
              ElementsAre("runtime-unconvertible-type | bad_unconvertible::add_scalar | smoke call: "
                          "bad_unconvertible::add_scalar: argument 'other' has type Scalar, and Scalar has no "
                          "StableIValue conversion; libtorch fails every call of this op"));
}

TEST(RuntimeDriver, DeviceIndexIsAnIntAsRealTorchParsesIt) {
  auto r = run("devices", "devices.yaml");
  EXPECT_THAT(r.lines, IsEmpty());
  EXPECT_EQ(r.fact("calls"), "5 cases: 5 passed, 0 failed");
  auto smoke = run("devices");
  EXPECT_THAT(smoke.lines, IsEmpty());
  EXPECT_EQ(smoke.fact("smoke devices::device_set_index"), "passed (smoke, float32 inputs)");
}

TEST(RuntimeDriver, DeviceOutputsAreCompared) {
  auto r = run("devices", "../../tests/unit/runtime/data/devices_wrong.yaml");
  EXPECT_THAT(r.lines, ElementsAre("runtime-output-mismatch | devices::device_set_index | case 'set_index': "
                                   "devices::device_set_index: output 0 is cuda:3, expected cuda:4"));
}

TEST(RuntimeDriver, IgnoredError) {
  EXPECT_THAT(run("bad_ignored_error").lines,
              ElementsAre("runtime-ignored-error | bad_ignored_error::size_of_dim7 | smoke call: the kernel of "
                          "bad_ignored_error::size_of_dim7 returned normally although a stable C function it called "
                          "failed: aoti_torch_get_size failed: Dimension out of range (expected to be in range of "
                          "[-2, 1], but got 7)"));
}

TEST(RuntimeDriver, UnstableImportCannotLoad) {
  auto r = run("bad_load_failed");
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_THAT(r.lines[0], HasSubstr("runtime-load-failed |  | the extension cannot be loaded without PyTorch: "));
  EXPECT_THAT(r.lines[0], HasSubstr("undefined symbol: _ZN3c1018warn_once_unstableEPKc"));
  EXPECT_THAT(r.report.findings[0].notes,
              ElementsAre("_ZN3c1018warn_once_unstableEPKc is c10::warn_once_unstable(char const*)",
                          "_ZN3c1018warn_once_unstableEPKc is not a stable C function: the extension depends on "
                          "libtorch beyond the stable ABI"));
  EXPECT_EQ(r.subject().verdict, "NOT LOADED");
}

TEST(RuntimeDriver, NewerFunctionsAreMissingOnAnOlderRelease) {
  auto r = run("bad_newer_api", "", "2.10");
  EXPECT_THAT(r.lines, ElementsAre("runtime-missing-symbol |  | the extension cannot load on PyTorch 2.10: it imports 2 "
                                   "stable C functions introduced in a later release"));
  const auto& notes = r.report.findings[0].notes;
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[0], "torch_tag_pointwise (2.12)");
  EXPECT_EQ(notes[1], "torch_library_def_with_tags (2.12)");
  EXPECT_THAT(notes[2], HasSubstr("undefined symbol: torch_tag_pointwise"));
  EXPECT_EQ(r.subject().verdict, "NOT LOADED");
}

TEST(RuntimeDriver, NewerFunctionsLoadOnTheirRelease) {
  auto r = run("bad_newer_api", "", "2.12");
  EXPECT_THAT(r.lines, IsEmpty());
  EXPECT_EQ(r.fact("runtime"), "torchabi reference runtime behaving as PyTorch 2.12");
}

TEST(RuntimeDriver, StaticInitializerThatNeverFinishesIsKilled) {
  auto r = run("bad_init_hang", "", "", 0.3);
  EXPECT_THAT(r.lines, ElementsAre("runtime-load-failed |  | loading the extension did not finish within 0.3 s and was "
                                   "killed while its static initializers ran"));
  EXPECT_EQ(r.subject().verdict, "NOT LOADED");
}

TEST(RuntimeDriver, StaticInitializerThatExitsIsALoadFailure) {
  auto r = run("bad_init_exit");
  EXPECT_THAT(r.lines, ElementsAre("runtime-load-failed |  | loading the extension exited the process with status 3 "
                                   "while its static initializers ran"));
  EXPECT_EQ(r.subject().verdict, "NOT LOADED");
}

TEST(RuntimeDriver, KernelThatExitsTheProcessIsACrashAndTheNextOpStillRuns) {
  // exit(0) from a kernel looks like success to a careless parent; the child
  // must not be trusted to have finished its calls.
  auto r = run("bad_kernel_exit");
  EXPECT_THAT(r.lines, ElementsAre("runtime-kernel-crash | bad_kernel_exit::quit | smoke call: the kernel of "
                                   "bad_kernel_exit::quit exited the process with status 0"));
  EXPECT_EQ(r.fact("smoke bad_kernel_exit::quit"), "crashed");
  EXPECT_EQ(r.fact("smoke bad_kernel_exit::stay"), "passed (smoke, float32 inputs)");
}

TEST(RuntimeDriver, CrashDoesNotStopTheRemainingCases) {
  // Cases after a crashing one still run, in a fresh child process.
  auto r = run("bad_segfault", "../../tests/unit/runtime/data/crash_then_more.yaml");
  EXPECT_EQ(r.fact("case first_crashes"), "crashed");
  EXPECT_EQ(r.fact("case second_crashes_too"), "crashed");
  EXPECT_EQ(r.fact("calls"), "2 cases: 0 passed, 2 failed");
  EXPECT_EQ(r.lines.size(), 2u);
}

TEST(RuntimeDriver, ExpectedErrorsAreChecked) {
  auto r = run("good_ops", "../../tests/unit/runtime/data/expect_error_mismatch.yaml");
  EXPECT_THAT(r.lines,
              ElementsAre("runtime-output-mismatch | good::add | case 'no_error_happens': good::add returned normally, "
                          "but the case expects an error containing \"float32\"",
                          "runtime-output-mismatch | good::add | case 'other_message': good::add threw \"good::add "
                          "expects float32 tensors\", but the case expects an error containing \"int64\""));
}

TEST(RuntimeDriver, CaseNamingAnUnknownOpIsAnInputError) {
  try {
    run("good_ops", "../../tests/unit/runtime/data/unknown_op.yaml");
    FAIL() << "expected an InputError";
  } catch (const torchabi::InputError& e) {
    EXPECT_THAT(e.line(), HasSubstr("unknown_op.yaml:2: case 'nope': op 'good::nope' is not registered by the "
                                    "extension (it registers: good::add, good::scale_"));
  }
}

TEST(RuntimeDriver, CaseInputsOfTheWrongTypeAreAnInputError) {
  try {
    run("good_ops", "../../tests/unit/runtime/data/bad_input.yaml");
    FAIL() << "expected an InputError";
  } catch (const torchabi::InputError& e) {
    EXPECT_THAT(e.line(), HasSubstr("bad_input.yaml:2: case 'alpha_is_text', argument 'alpha': expected a number, got "
                                    "'two'"));
  }
}

TEST(RuntimeDriver, MissingExtensionIsAnInputError) {
  torchabi::runtime_driver::RunOptions o;
  o.extension = "/nonexistent/ext.so";
  torchabi::findings::Report report;
  EXPECT_THROW(torchabi::runtime_driver::run_extension(o, report), torchabi::InputError);
}

TEST(RuntimeDriver, ReleaseOutsideTheCatalogIsAnInputError) {
  try {
    run("good_ops", "", "2.3");
    FAIL() << "expected an InputError";
  } catch (const torchabi::InputError& e) {
    EXPECT_EQ(e.line(), "--torch-version: the reference runtime behaves as PyTorch 2.9 to 2.14; 2.3 is outside what "
                        "the rules know");
  }
}

}  // namespace

namespace {

TEST(RuntimeDriver, TorchLibrariesInDtNeededAreSatisfiedByStandIns) {
  // The fixture names plain and versioned torch sonames, as pip and Debian builds link them.
  auto needed = torchabi::runtime_driver::read_extension_imports(runtime_test::fixture("linked_to_libtorch")).needed;
  EXPECT_THAT(needed, IsSupersetOf({"libtorch.so", "libtorch_cpu.so.2.99", "libc10.so.2.99", "libshm.so.2.99"}));
  auto r = run("linked_to_libtorch");
  EXPECT_THAT(r.lines, IsEmpty());
  EXPECT_EQ(r.subject().verdict, "PASSED");
  EXPECT_EQ(r.fact("calls"), "1 smoke call: 1 passed, 0 failed");
}

TEST(RuntimeDriver, EveryTorchSonameGetsAStandInAndNothingElse) {
  using torchabi::runtime_driver::torch_library_names;
  const auto& rules = torchabi::inputs::RulesSource::embedded();
  std::vector<std::string> torch = {
      "libtorch.so",           "libtorch.so.2.14",       "libtorch_cpu.so",        "libtorch_cpu.so.2.14",
      "libtorch_cpu.so.2.14.1", "libtorch_cuda.so",      "libtorch_python.so.2.14", "libtorch_global_deps.so",
      "libc10.so",             "libc10.so.2.14",         "libc10_cuda.so",         "libc10_cuda.so.3.0",
      "libshm.so",             "libshm.so.2.14"};
  EXPECT_EQ(torch_library_names(torch, rules), torch);
  std::vector<std::string> other = {"libc.so.6",        "libstdc++.so.6",   "libtorchvision.so", "libtorchaudio.so",
                                    "libc10x.so",       "libshmem.so",      "libtorch_cpu.so.x", "mylibtorch.so",
                                    "libtorch_cpu.so.2.14.debug"};
  EXPECT_THAT(torch_library_names(other, rules), IsEmpty());
}

}  // namespace
