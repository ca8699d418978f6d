// A conda package's `depends` on PyTorch read as the torch releases it lets
// conda install it with: the same allowance a wheel's Requires-Dist gives.
#include <gtest/gtest.h>

#include "analyzers/binary/conda_requirement.h"
#include "inputs/rules_source.h"

using namespace torchabi;
using binary::conda_spec_allowance;
using binary::TorchAllowance;
using Kind = TorchAllowance::Kind;

namespace {

TorchVersion v(int major, int minor, int patch = 0) { return {major, minor, patch}; }

TorchAllowance of(std::vector<std::string> depends) {
  inputs::CondaIndex index;
  for (const auto& d : depends) index.depends.push_back(inputs::parse_conda_dependency(d));
  return binary::conda_torch_allowance(index, binary::conda_torch_packages(inputs::RulesSource::current()));
}

}  // namespace

TEST(CondaRequirement, VersionSpecs) {
  EXPECT_EQ(conda_spec_allowance("").kind, Kind::NoLowerBound);
  EXPECT_EQ(conda_spec_allowance("<3").kind, Kind::NoLowerBound);
  for (const char* spec : {">=2.12", "2.12", "2.12.*", "=2.12", "==2.12.0", "2.12*", ">=2.12.0,<2.13.0a0"}) {
    auto a = conda_spec_allowance(spec);
    EXPECT_EQ(a.kind, Kind::LowerBound) << spec;
    EXPECT_EQ(a.bound, v(2, 12)) << spec;
    EXPECT_FALSE(a.allows_older_than(v(2, 12))) << spec;
    EXPECT_TRUE(a.allows_older_than(v(2, 13))) << spec;
  }
  // Alternatives: the most permissive decides; constraints: the highest bound.
  EXPECT_EQ(conda_spec_allowance("2.12.*|2.10.*").bound, v(2, 10));
  EXPECT_EQ(conda_spec_allowance(">=2.10,>=2.11").bound, v(2, 11));
  EXPECT_EQ(conda_spec_allowance("2.12.*|<3").kind, Kind::NoLowerBound);
  EXPECT_FALSE(conda_spec_allowance(">2.11").allows_older_than(v(2, 11, 1)));
  EXPECT_EQ(conda_spec_allowance(">=banana").kind, Kind::Unknown);
}

TEST(CondaRequirement, DependsOnPyTorchsPackages) {
  auto a = of({"python >=3.11", "numpy >=1.20"});
  EXPECT_EQ(a.kind, Kind::NotDeclared);
  EXPECT_EQ(a.describe(), "no depends on PyTorch's conda packages");
  a = of({"pytorch >=2.10,<3"});
  EXPECT_EQ(a.bound, v(2, 10));
  EXPECT_EQ(a.describe(), "depends: pytorch >=2.10,<3");
  for (const char* name : {"libtorch", "pytorch-cpu", "pytorch-gpu", "conda-forge::pytorch"})
    EXPECT_EQ(of({std::string(name) + " >=2.11"}).bound, v(2, 11)) << name;
  // All apply together: the strictest bound decides.
  a = of({"pytorch", "libtorch >=2.12.0,<2.13.0a0"});
  EXPECT_EQ(a.kind, Kind::LowerBound);
  EXPECT_EQ(a.bound, v(2, 12));
  EXPECT_EQ(a.requirement, "libtorch >=2.12.0,<2.13.0a0");
  EXPECT_EQ(of({"pytorch"}).kind, Kind::NoLowerBound);
}
