// Myers' O(ND) line diff: the changes --fix makes are few and scattered, so D
// (changed lines) is small even in large files and the trace kept for the
// backtrack (O(D^2) integers) stays small.
#include "analyzers/migration/unified_diff.h"

#include <algorithm>
#include <vector>

namespace torchabi::migration {

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return lines;
}

enum class Op { Equal, Delete, Insert };
struct Step {
  Op op;
  int a;  // index in the old lines (Equal, Delete)
  int b;  // index in the new lines (Equal, Insert)
};

std::vector<Step> myers(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  const int n = int(a.size()), m = int(b.size()), max = n + m;
  const int off = max + 1;
  std::vector<int> v(2 * size_t(max) + 3, 0);
  std::vector<std::vector<int>> trace;  // trace[d][k + d] = furthest x on diagonal k after d edits
  int final_d = 0;
  for (int d = 0; d <= max; ++d) {
    bool done = false;
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      v[off + k] = x;
      if (x >= n && y >= m) done = true;
    }
    trace.emplace_back(v.begin() + off - d, v.begin() + off + d + 1);
    if (done) {
      final_d = d;
      break;
    }
  }
  std::vector<Step> steps;
  int x = n, y = m;
  for (int d = final_d; d > 0; --d) {
    const auto& prev = trace[d - 1];  // indices -(d-1)..(d-1)
    auto at = [&](int k) { return prev[k + d - 1]; };
    const int k = x - y;
    const int prev_k = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
    const int prev_x = at(prev_k), prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) {
      --x, --y;
      steps.push_back({Op::Equal, x, y});
    }
    if (x == prev_x) steps.push_back({Op::Insert, x, --y});
    else steps.push_back({Op::Delete, --x, y});
  }
  while (x > 0 && y > 0) {
    --x, --y;
    steps.push_back({Op::Equal, x, y});
  }
  std::reverse(steps.begin(), steps.end());
  return steps;
}

std::string range(int start0, int count) {
  // GNU diff: a hunk side of length 0 names the line before it.
  int start = count == 0 ? start0 : start0 + 1;
  return count == 1 ? std::to_string(start) : std::to_string(start) + "," + std::to_string(count);
}

void emit_line(std::string& out, char tag, std::string_view line) {
  out += tag;
  out += line;
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string unified_diff(std::string_view before, std::string_view after, const std::string& path, int context) {
  if (before == after) return {};
  const auto a = split_lines(before), b = split_lines(after);
  const auto steps = myers(a, b);

  std::string out = "--- " + path + "\n+++ " + path + "\n";
  size_t i = 0;
  while (i < steps.size()) {
    while (i < steps.size() && steps[i].op == Op::Equal) ++i;
    if (i == steps.size()) break;
    // A hunk: from `context` equal lines before the first change to `context`
    // after the last change that is within 2*context equal lines of the next.
    size_t start = i >= size_t(context) ? i - context : 0;
    size_t end = i;
    for (;;) {
      while (end < steps.size() && steps[end].op != Op::Equal) ++end;
      size_t run = end;
      while (run < steps.size() && steps[run].op == Op::Equal) ++run;
      if (run < steps.size() && run - end <= size_t(2 * context)) {
        end = run;
        continue;
      }
      end = std::min(steps.size(), end + context);
      break;
    }
    int a_start = -1, b_start = -1, a_count = 0, b_count = 0;
    for (size_t s = start; s < end; ++s) {
      const Step& st = steps[s];
      if (st.op != Op::Insert) {
        if (a_start < 0) a_start = st.a;
        ++a_count;
      }
      if (st.op != Op::Delete) {
        if (b_start < 0) b_start = st.b;
        ++b_count;
      }
    }
    // A side with no lines starts where the other side's first step sits.
    if (a_start < 0) a_start = steps[start].a;
    if (b_start < 0) b_start = steps[start].b;
    out += "@@ -" + range(a_start, a_count) + " +" + range(b_start, b_count) + " @@\n";
    for (size_t s = start; s < end; ++s) {
      const Step& st = steps[s];
      if (st.op == Op::Equal) emit_line(out, ' ', a[st.a]);
      else if (st.op == Op::Delete) emit_line(out, '-', a[st.a]);
      else emit_line(out, '+', b[st.b]);
    }
    i = end;
  }
  return out;
}

}  // namespace torchabi::migration
