// The embedded rules as the build read them (inputs/precompiled_rules.h)
// must be what reading their YAML now gives: the catalog's releases and
// namespaces, and every rule's documentation.
#include <gtest/gtest.h>

#include "findings/rule_registry.h"
#include "inputs/api_catalog.h"
#include "inputs/precompiled_rules.h"
#include "inputs/rules_source.h"

namespace torchabi {
namespace {

// The rules/ directory the embedded ones were made from, read as --rules-dir reads it.
inputs::RulesSource from_yaml() { return inputs::RulesSource::directory(std::string(TORCHABI_SOURCE_DIR) + "/rules"); }

TEST(PrecompiledRules, LinkedAndMadeFromTheEmbeddedRules) {
  // Null when the digest differs: a stale or foreign file would be ignored.
  ASSERT_NE(inputs::precompiled::embedded(), nullptr);
}

TEST(PrecompiledRules, CatalogReleasesAndNamespacesAsFromTheYaml) {
  const auto pre = inputs::ApiCatalog::load(inputs::RulesSource::embedded());  // precompiled
  const auto yaml = inputs::ApiCatalog::load(from_yaml());
  EXPECT_EQ(pre.baseline(), yaml.baseline());
  EXPECT_EQ(pre.latest(), yaml.latest());
  EXPECT_EQ(pre.releases(), yaml.releases());
  const auto a = pre.namespaces(), b = yaml.namespaces();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].kind, b[i].kind) << i;
    EXPECT_EQ(a[i].ns, b[i].ns) << i;
    EXPECT_EQ(a[i].why, b[i].why) << i;
  }
  EXPECT_EQ(pre.namespace_roots(), yaml.namespace_roots());
  // The C shim table: same rows, same index (its rows as the build indexed them).
  EXPECT_EQ(pre.table_bytes(), yaml.table_bytes());
  EXPECT_EQ(pre.row_spans(), yaml.row_spans());
  EXPECT_EQ(pre.rows_by_name(), yaml.rows_by_name());
  ASSERT_EQ(pre.c_functions().size(), yaml.c_functions().size());
  for (const auto& f : yaml.c_functions()) {
    const inputs::CFunction* p = pre.find_c(f.name);
    ASSERT_NE(p, nullptr) << f.name;
    EXPECT_EQ(p->since_label(), yaml.find_c(f.name)->since_label()) << f.name;
    EXPECT_EQ(p->prototype, yaml.find_c(f.name)->prototype) << f.name;
  }
  EXPECT_EQ(pre.classify("c10::TensorImpl").kind, inputs::NamespaceKind::Unstable);
  EXPECT_EQ(pre.classify("torch::stable::Tensor").kind, inputs::NamespaceKind::Stable);
}

TEST(PrecompiledRules, EveryRuleDocumentedAsInTheYaml) {
  const auto pre = findings::RuleRegistry::lazy(inputs::RulesSource::embedded());
  const auto yaml = findings::RuleRegistry::load(from_yaml());
  const auto& all_yaml = yaml.all();
  ASSERT_GT(all_yaml.size(), 50u);
  // Looked up one by one (the lazy path a report takes), then all at once.
  for (const auto& [id, d] : all_yaml) {
    const findings::RuleDoc* p = pre.find(id);
    ASSERT_NE(p, nullptr) << id;
    EXPECT_EQ(p->id, d.id);
    EXPECT_EQ(p->group, d.group) << id;
    EXPECT_EQ(p->severity, d.severity) << id;
    EXPECT_EQ(p->summary, d.summary) << id;
    EXPECT_EQ(p->description, d.description) << id;
    EXPECT_EQ(p->instead, d.instead) << id;
    EXPECT_EQ(p->fix, d.fix) << id;
    EXPECT_EQ(p->example_fires, d.example_fires) << id;
    EXPECT_EQ(p->example_clean, d.example_clean) << id;
  }
  EXPECT_EQ(pre.all().size(), all_yaml.size());
  EXPECT_EQ(pre.find("no-such-rule"), nullptr);
  EXPECT_EQ(pre.find("../api/releases"), nullptr);
}

}  // namespace
}  // namespace torchabi
