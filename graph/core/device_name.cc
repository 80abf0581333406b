// Device-name parsing, printing, matching and merging (see device_name.h).
#include "graph/core/device_name.h"

#include <climits>
#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "graph/core/errors.h"

namespace sluice {
namespace {

bool IsNameChar(char c) { return absl::ascii_isalnum(c) || c == '_'; }

// Consumes a name (a letter, then letters, digits and '_') that runs up to the first
// character of `terminators` or the end. Fails if the name is empty or has any other
// character before the terminator.
bool ConsumeName(absl::string_view* in, absl::string_view terminators, std::string* out) {
  if (in->empty() || !absl::ascii_isalpha(in->front())) return false;
  size_t end = in->find_first_of(terminators);
  if (end == absl::string_view::npos) end = in->size();
  for (size_t i = 1; i < end; ++i) {
    if (!IsNameChar((*in)[i])) return false;
  }
  out->assign(in->data(), end);
  in->remove_prefix(end);
  return true;
}

// Consumes one or more decimal digits whose value fits an int.
bool ConsumeNumber(absl::string_view* in, int* value) {
  size_t i = 0;
  int64_t v = 0;
  while (i < in->size() && absl::ascii_isdigit((*in)[i])) {
    v = v * 10 + ((*in)[i] - '0');
    if (v > INT_MAX) return false;
    ++i;
  }
  if (i == 0) return false;
  *value = static_cast<int>(v);
  in->remove_prefix(i);
  return true;
}

// After a field's prefix: "*" leaves the field unset; otherwise `consume` must succeed.
template <typename Consume>
bool ConsumeField(absl::string_view* in, bool* has, Consume consume) {
  *has = !absl::ConsumePrefix(in, "*");
  return !*has || consume();
}

// The legacy "/cpu:<id>" and "/gpu:<id>" forms (also "/CPU:", "/GPU:"), which mean
// "/device:CPU:<id>" and "/device:GPU:<id>".
bool ConsumeLegacyDevice(absl::string_view* in, ParsedDeviceName* p, bool* progress) {
  static constexpr struct {
    absl::string_view prefix, type;
  } kLegacy[] = {{"/cpu:", "CPU"}, {"/CPU:", "CPU"}, {"/gpu:", "GPU"}, {"/GPU:", "GPU"}};
  for (const auto& legacy : kLegacy) {
    if (!absl::ConsumePrefix(in, legacy.prefix)) continue;
    *progress = true;
    p->has_type = true;
    p->type = std::string(legacy.type);
    if (!ConsumeField(in, &p->has_id, [&] { return ConsumeNumber(in, &p->id); })) return false;
  }
  return true;
}

// Consumes "/device:<type>[:<id>]" if present; either part may be "*".
bool ConsumeDevice(absl::string_view* in, ParsedDeviceName* p, bool* progress) {
  if (!absl::ConsumePrefix(in, "/device:")) return true;
  *progress = true;
  if (!ConsumeField(in, &p->has_type, [&] { return ConsumeName(in, "/:", &p->type); })) {
    return false;
  }
  if (!absl::ConsumePrefix(in, ":")) {
    p->has_id = false;
    return true;
  }
  return ConsumeField(in, &p->has_id, [&] { return ConsumeNumber(in, &p->id); });
}

// Copies one field of `other` into `target` (whose members are *has and *value) if `other`
// sets it; a different value already set in `target` is a conflict. The whole names are
// passed for the message.
template <typename T>
absl::Status MergeField(const char* what, bool other_has, const T& other_value, bool* has, T* value,
                        const ParsedDeviceName& target, const ParsedDeviceName& other) {
  if (!other_has) return absl::OkStatus();
  if (*has && *value != other_value) {
    return errors::InvalidArgument("Cannot merge devices with incompatible ", what, ": '",
                                   ParsedNameToString(target), "' and '", ParsedNameToString(other),
                                   "'");
  }
  *has = true;
  *value = other_value;
  return absl::OkStatus();
}

absl::Status MergeImpl(ParsedDeviceName* target, const ParsedDeviceName& other, bool soft,
                       bool override_conflicts) {
  RETURN_IF_ERROR(
      MergeField("jobs", other.has_job, other.job, &target->has_job, &target->job, *target, other));
  RETURN_IF_ERROR(MergeField("replicas", other.has_replica, other.replica, &target->has_replica,
                             &target->replica, *target, other));
  RETURN_IF_ERROR(MergeField("tasks", other.has_task, other.task, &target->has_task, &target->task,
                             *target, other));
  if (other.has_type && target->has_type && target->type != other.type && soft) {
    if (!override_conflicts) {
      target->has_type = false;
      target->has_id = false;
      return absl::OkStatus();
    }
    target->type = other.type;
  }
  RETURN_IF_ERROR(MergeField("types", other.has_type, other.type, &target->has_type, &target->type,
                             *target, other));
  if (other.has_id && target->has_id && target->id != other.id && soft) {
    if (!override_conflicts) {
      target->has_id = false;
      return absl::OkStatus();
    }
    target->id = other.id;
  }
  return MergeField("ids", other.has_id, other.id, &target->has_id, &target->id, *target, other);
}

}  // namespace

bool ParsedDeviceName::operator==(const ParsedDeviceName& o) const {
  return has_job == o.has_job && (!has_job || job == o.job) && has_replica == o.has_replica &&
         (!has_replica || replica == o.replica) && has_task == o.has_task &&
         (!has_task || task == o.task) && has_type == o.has_type && (!has_type || type == o.type) &&
         has_id == o.has_id && (!has_id || id == o.id);
}

bool ParseFullName(absl::string_view fullname, ParsedDeviceName* p) {
  p->Clear();
  if (fullname == "/") return true;
  while (!fullname.empty()) {
    bool progress = false;
    if (absl::ConsumePrefix(&fullname, "/job:")) {
      progress = true;
      if (!ConsumeField(&fullname, &p->has_job,
                        [&] { return ConsumeName(&fullname, "/", &p->job); })) {
        return false;
      }
    }
    if (absl::ConsumePrefix(&fullname, "/replica:")) {
      progress = true;
      if (!ConsumeField(&fullname, &p->has_replica,
                        [&] { return ConsumeNumber(&fullname, &p->replica); })) {
        return false;
      }
    }
    if (absl::ConsumePrefix(&fullname, "/task:")) {
      progress = true;
      if (!ConsumeField(&fullname, &p->has_task,
                        [&] { return ConsumeNumber(&fullname, &p->task); })) {
        return false;
      }
    }
    if (!ConsumeDevice(&fullname, p, &progress)) return false;
    if (!ConsumeLegacyDevice(&fullname, p, &progress)) return false;
    if (!progress) return false;
  }
  return true;
}

bool ParseLocalName(absl::string_view name, ParsedDeviceName* p) {
  if (!ConsumeName(&name, "/:", &p->type)) return false;
  p->has_type = true;
  if (!absl::ConsumePrefix(&name, ":")) return false;
  if (!ConsumeNumber(&name, &p->id)) return false;
  p->has_id = true;
  return name.empty();
}

bool ParseFullOrLocalName(absl::string_view name, ParsedDeviceName* parsed) {
  if (ParseFullName(name, parsed)) return true;
  parsed->Clear();
  return ParseLocalName(name, parsed);
}

std::string FullName(absl::string_view job, int replica, int task, absl::string_view type, int id) {
  return absl::StrCat("/job:", job, "/replica:", replica, "/task:", task, "/device:", type, ":",
                      id);
}

std::string LocalName(absl::string_view type, int id) {
  return absl::StrCat("/device:", type, ":", id);
}

std::string ParsedNameToString(const ParsedDeviceName& pn) {
  std::string out;
  if (pn.has_job) absl::StrAppend(&out, "/job:", pn.job);
  if (pn.has_replica) absl::StrAppend(&out, "/replica:", pn.replica);
  if (pn.has_task) absl::StrAppend(&out, "/task:", pn.task);
  if (pn.has_type) {
    absl::StrAppend(&out, "/device:", pn.type, ":");
    if (pn.has_id) {
      absl::StrAppend(&out, pn.id);
    } else {
      out += "*";
    }
  }
  return out;
}

bool HasSomeDetails(const ParsedDeviceName& n) {
  return n.has_job || n.has_replica || n.has_task || n.has_type || n.has_id;
}

bool IsFullySpecified(const ParsedDeviceName& n) {
  return n.has_job && n.has_replica && n.has_task && n.has_type && n.has_id;
}

bool IsSpecification(const ParsedDeviceName& less, const ParsedDeviceName& more) {
  if (less.has_job && (!more.has_job || less.job != more.job)) return false;
  if (less.has_replica && (!more.has_replica || less.replica != more.replica)) return false;
  if (less.has_task && (!more.has_task || less.task != more.task)) return false;
  if (less.has_type && (!more.has_type || less.type != more.type)) return false;
  if (less.has_id && (!more.has_id || less.id != more.id)) return false;
  return true;
}

void EnsureSpecification(ParsedDeviceName* more, const ParsedDeviceName& less) {
  if (less.has_job) {
    more->has_job = true;
    more->job = less.job;
  }
  if (less.has_replica) {
    more->has_replica = true;
    more->replica = less.replica;
  }
  if (less.has_task) {
    more->has_task = true;
    more->task = less.task;
  }
  if (less.has_type) {
    more->has_type = true;
    more->type = less.type;
  }
  if (less.has_id) {
    more->has_id = true;
    more->id = less.id;
  }
}

bool IsCompleteSpecification(const ParsedDeviceName& pattern, const ParsedDeviceName& name) {
  return IsFullySpecified(name) && IsSpecification(pattern, name);
}

bool AreCompatibleDevNames(const ParsedDeviceName& a, const ParsedDeviceName& b) {
  if (a.has_job && b.has_job && a.job != b.job) return false;
  if (a.has_replica && b.has_replica && a.replica != b.replica) return false;
  if (a.has_task && b.has_task && a.task != b.task) return false;
  if (a.has_type && b.has_type && a.type != b.type) return false;
  if (a.has_id && b.has_id && a.id != b.id) return false;
  return true;
}

absl::Status MergeDevNames(ParsedDeviceName* target, const ParsedDeviceName& other,
                           bool allow_soft_placement) {
  return MergeImpl(target, other, allow_soft_placement, /*override_conflicts=*/false);
}

absl::Status MergeOverrideDevNames(ParsedDeviceName* target, const ParsedDeviceName& other) {
  return MergeImpl(target, other, /*soft=*/true, /*override_conflicts=*/true);
}

void MergeUnsetDevNames(ParsedDeviceName* target, const ParsedDeviceName& other) {
  if (other.has_job && !target->has_job) {
    target->has_job = true;
    target->job = other.job;
  }
  if (other.has_replica && !target->has_replica) {
    target->has_replica = true;
    target->replica = other.replica;
  }
  if (other.has_task && !target->has_task) {
    target->has_task = true;
    target->task = other.task;
  }
  if (other.has_type && !target->has_type) {
    target->has_type = true;
    target->type = other.type;
  }
  if (other.has_id && !target->has_id) {
    target->has_id = true;
    target->id = other.id;
  }
}

bool IsSameAddressSpace(const ParsedDeviceName& a, const ParsedDeviceName& b) {
  return a.has_job && b.has_job && a.job == b.job && a.has_replica && b.has_replica &&
         a.replica == b.replica && a.has_task && b.has_task && a.task == b.task;
}

bool IsSameAddressSpace(absl::string_view a, absl::string_view b) {
  ParsedDeviceName pa, pb;
  return ParseFullName(a, &pa) && ParseFullName(b, &pb) && IsSameAddressSpace(pa, pb);
}

ParsedDeviceName AddressSpace(const ParsedDeviceName& name) {
  ParsedDeviceName out;
  out.has_job = name.has_job;
  out.job = name.job;
  out.has_replica = name.has_replica;
  out.replica = name.replica;
  out.has_task = name.has_task;
  out.task = name.task;
  return out;
}

absl::Status CanonicalizeDeviceName(absl::string_view fullname, absl::string_view basename,
                                    std::string* canonical_name) {
  canonical_name->clear();
  ParsedDeviceName base;
  if (!ParseFullName(basename, &base)) {
    return errors::InvalidArgument("Could not parse basename: ", basename,
                                   " into a device specification.");
  }
  if (!IsFullySpecified(base)) {
    return errors::InvalidArgument("Basename: ", basename, " should be fully specified.");
  }
  ParsedDeviceName name;
  if (!ParseLocalName(fullname, &name)) {
    if (!ParseFullName(fullname, &name)) {
      return errors::InvalidArgument("Could not parse ", fullname, " into a device specification.");
    }
  }
  MergeUnsetDevNames(&name, base);
  *canonical_name = ParsedNameToString(name);
  return absl::OkStatus();
}

}  // namespace sluice
