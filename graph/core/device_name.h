// Device names and device specifications, with TensorFlow's DeviceNameUtils semantics.
//
// A full device name is "/job:<job>/replica:<r>/task:<t>/device:<TYPE>:<id>", for example
// "/job:localhost/replica:0/task:0/device:CPU:0". A NodeDef's `device` field holds a
// specification: any subset of those fields, in any order, each of which may also be "*"
// (any value). Examples: "" and "/" (anything), "/device:GPU:1", "/device:GPU:*",
// "/job:localhost/task:0", and the legacy forms "/cpu:0", "/gpu:1", "/GPU:*" that mean
// "/device:CPU:0", "/device:GPU:1", "/device:GPU:*". Only those legacy forms are upper-cased:
// "/device:cpu:0" names a device of type "cpu", as in TensorFlow. A local name is
// "<TYPE>:<id>" ("CPU:0"), accepted by ParseLocalName and ParseFullOrLocalName only.
//
// A job name is a letter followed by letters, digits and '_'; a device type likewise. Numbers
// are decimal and must fit an int (TensorFlow wraps larger ones; here they fail to parse).
//
// Nothing here crashes on user input: parsers return false, merges return INVALID_ARGUMENT
// with TensorFlow's messages. All functions are pure and thread-safe.
#ifndef SLUICE_GRAPH_CORE_DEVICE_NAME_H_
#define SLUICE_GRAPH_CORE_DEVICE_NAME_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace sluice {

// A parsed device specification. A field whose has_* flag is false is unconstrained
// (absent or "*"); its value is then meaningless and ignored by every function below.
struct ParsedDeviceName {
  bool has_job = false;
  std::string job;
  bool has_replica = false;
  int replica = 0;
  bool has_task = false;
  int task = 0;
  bool has_type = false;
  std::string type;
  bool has_id = false;
  int id = 0;

  void Clear() { *this = ParsedDeviceName(); }

  // Equal when the same fields are set and the set fields have equal values.
  bool operator==(const ParsedDeviceName& other) const;
  bool operator!=(const ParsedDeviceName& other) const { return !(*this == other); }
};

// Parses a full name or a (partial) specification into *parsed (cleared first). Returns false
// for anything malformed, in which case *parsed holds whatever was parsed so far.
bool ParseFullName(absl::string_view fullname, ParsedDeviceName* parsed);

// Parses a local name "<TYPE>:<id>" ("CPU:0", "GPU:1"); sets only type and id. Returns false
// for anything else, including "CPU", "CPU:*" and "/device:CPU:0".
bool ParseLocalName(absl::string_view name, ParsedDeviceName* parsed);

// ParseFullName, or failing that ParseLocalName.
bool ParseFullOrLocalName(absl::string_view name, ParsedDeviceName* parsed);

// "/job:<job>/replica:<replica>/task:<task>/device:<type>:<id>". The caller passes a valid
// job name, a non-empty type and non-negative numbers (the string is built as given).
std::string FullName(absl::string_view job, int replica, int task, absl::string_view type, int id);

// "/device:<type>:<id>".
std::string LocalName(absl::string_view type, int id);

// The canonical spelling of a specification: the set fields in the order job, replica, task,
// device, with "*" for a type without an id ("/device:GPU:*"); "" when nothing is set. An id
// without a type is not printed (TensorFlow's behaviour).
std::string ParsedNameToString(const ParsedDeviceName& name);

// True if any field is set, i.e. the specification constrains the device at all.
bool HasSomeDetails(const ParsedDeviceName& name);

// True if every field is set, i.e. the specification names exactly one device.
bool IsFullySpecified(const ParsedDeviceName& name);

// True if every field set in `less_specific` is also set in `more_specific`, with the same
// value.
bool IsSpecification(const ParsedDeviceName& less_specific, const ParsedDeviceName& more_specific);

// Sets in *more_specific every field set in `less_specific` (overwriting), so that it becomes
// a specification of `less_specific`.
void EnsureSpecification(ParsedDeviceName* more_specific, const ParsedDeviceName& less_specific);

// True if `name` is fully specified and matches every field set in `pattern`. (TensorFlow
// CHECK-fails on an incomplete `name`; this returns false.)
bool IsCompleteSpecification(const ParsedDeviceName& pattern, const ParsedDeviceName& name);

// True if no field is set in both with different values, so that some full name satisfies
// both.
bool AreCompatibleDevNames(const ParsedDeviceName& a, const ParsedDeviceName& b);

// Merges `other` into *target: every field set in `other` is set in *target. A conflict in
// job, replica or task is INVALID_ARGUMENT ("Cannot merge devices with incompatible jobs:
// '<target>' and '<other>'"). A conflict in type or id is too, unless allow_soft_placement,
// in which case a type conflict clears type and id, and an id conflict clears the id. On
// error *target may hold the fields merged before the conflict.
absl::Status MergeDevNames(ParsedDeviceName* target, const ParsedDeviceName& other,
                           bool allow_soft_placement = false);

// Like MergeDevNames with soft placement, but a conflicting type or id takes `other`'s value
// instead of being cleared. Fails only on job, replica or task conflicts.
absl::Status MergeOverrideDevNames(ParsedDeviceName* target, const ParsedDeviceName& other);

// Sets in *target the fields set in `other` that *target lacks; never fails.
void MergeUnsetDevNames(ParsedDeviceName* target, const ParsedDeviceName& other);

// True if both set job, replica and task, with equal values: the devices share a process.
bool IsSameAddressSpace(const ParsedDeviceName& a, const ParsedDeviceName& b);
// The same on names; false if either fails to parse.
bool IsSameAddressSpace(absl::string_view a, absl::string_view b);

// Only the job, replica and task of `name`.
ParsedDeviceName AddressSpace(const ParsedDeviceName& name);

// The full name `fullname` (a full or local name or specification) denotes once the fields it
// leaves unset are taken from `basename`, which must be fully specified. INVALID_ARGUMENT
// ("Could not parse basename: ...", "Basename: ... should be fully specified.", "Could not
// parse ... into a device specification.") otherwise, with *canonical_name set to "".
absl::Status CanonicalizeDeviceName(absl::string_view fullname, absl::string_view basename,
                                    std::string* canonical_name);

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_DEVICE_NAME_H_
