#!/usr/bin/env python3
"""Compares Sluice's C API headers (c_api/include) with an installed TensorFlow's.

Usage: compare_exports.py [TF_INCLUDE_DIR] [--ours DIR] [--signatures]

TF_INCLUDE_DIR defaults to tensorflow.sysconfig.get_include(). For each public header it lists
the functions marked TF_CAPI_EXPORT in TensorFlow's copy and in ours, and prints those missing
from ours, those only ours declare, and those declared in a different header. It does the same
for the TSL_ status functions of xla/tsl/c/tsl_status.h, the static inline TF_TString functions
of tsl/platform/ctstring*.h and the macros the headers define. The section of c_api.h that
TensorFlow keeps for its Python bindings (after the comment "Apis that are corresponding to
python c api") is left out on purpose and listed separately.

With --signatures it also compiles one small C++ program against each tree (g++ must be on
PATH) that prints the type of every function, the value of every enumerator and TF_ code macro,
and the size and field offsets of every struct, and compares the two outputs line by line.

Exits 1 if anything is missing, misplaced or (with --signatures) different; extra names alone
are reported but do not fail.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

# The headers whose TF_CAPI_EXPORT functions make up the API, as TensorFlow lays them out.
EXPORT_HEADERS = [
    "tensorflow/c/c_api.h",
    "tensorflow/c/c_api_macros.h",
    "tensorflow/c/eager/c_api.h",
    "tensorflow/c/tf_attrtype.h",
    "tensorflow/c/tf_buffer.h",
    "tensorflow/c/tf_datatype.h",
    "tensorflow/c/tf_file_statistics.h",
    "tensorflow/c/tf_status.h",
    "tensorflow/c/tf_tensor.h",
    "tensorflow/c/tf_tstring.h",
]
STATUS_HEADER = "xla/tsl/c/tsl_status.h"
TSTRING_HEADERS = ["tsl/platform/ctstring.h", "tsl/platform/ctstring_internal.h"]
# Headers that only forward to another path; they must exist and define the same guard.
FORWARDING_HEADERS = [
    "tensorflow/core/platform/ctstring.h",
    "tensorflow/core/platform/ctstring_internal.h",
]
PYTHON_SECTION_MARKER = "Apis that are corresponding to python c api"

IDENT = r"[A-Za-z_]\w*"


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def strip_preprocessor(text):
    """Removes preprocessor lines, continuation lines included."""
    text = re.sub(r"\\\n", " ", text)
    return "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("#"))


def code_of(text):
    return strip_preprocessor(strip_comments(text))


def exported_functions(text):
    """Names of the functions a header declares with TF_CAPI_EXPORT, in order."""
    names = []
    for match in re.finditer(r"\bTF_CAPI_EXPORT\b([^;{]*?)(" + IDENT + r")\s*\(", code_of(text)):
        names.append(match.group(2))
    return names


def plain_functions(text, prefix):
    """Names of `extern` functions starting with `prefix` (the TSL_ status functions)."""
    return re.findall(r"\bextern\b[^;(]*?\b(" + prefix + r"\w*)\s*\(", code_of(text))


def inline_functions(text):
    """Names of the functions a header declares or defines inline (static inline or inline)."""
    code = code_of(text)
    pattern = r"\binline\b[^;{(]*?\b(" + IDENT + r")\s*\([^;{]*\)\s*[{;]"
    return sorted(set(re.findall(pattern, code)))


def macros(text):
    """Names of the macros a header defines, the include guard excluded."""
    names = re.findall(r"^\s*#\s*define\s+(" + IDENT + ")", text, flags=re.M)
    guard = re.search(r"^\s*#\s*ifndef\s+(" + IDENT + ")", text, flags=re.M)
    return [n for n in names if not (guard and n == guard.group(1))], guard and guard.group(1)


def enumerators(text):
    code = code_of(text)
    names = []
    for body in re.findall(r"\benum\b[^{;]*\{([^}]*)\}", code):
        for item in body.split(","):
            item = item.strip()
            if item:
                names.append(re.match(IDENT, item).group(0))
    return names


def structs(text):
    """{struct name: [field names]} for the structs a header defines."""
    code = code_of(text)
    result = {}
    pos = 0
    while True:
        match = re.compile(r"\b(?:struct|union)\s+(" + IDENT + r")\s*\{").search(code, pos)
        if not match:
            return result
        depth, i = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        body = code[match.end():i - 1]
        # Flatten nested aggregates to their member name ("union { ... } u;" -> "u").
        while re.search(r"\{[^{}]*\}", body):
            body = re.sub(r"\{[^{}]*\}", "", body)
        fields = []
        for decl in body.split(";"):
            decl = decl.strip()
            if not decl:
                continue
            pointer = re.search(r"\(\s*\*\s*(" + IDENT + r")\s*\)", decl)
            if pointer:
                name = pointer.group(1)
            else:
                name = re.findall(IDENT, re.sub(r"\[.*?\]", "", decl))[-1]
            fields.append(name)
        result[match.group(1)] = fields
        pos = i


def python_section(tf_c_api_text):
    """Exported names TensorFlow's c_api.h declares after the Python-bindings marker."""
    at = tf_c_api_text.find(PYTHON_SECTION_MARKER)
    return set(exported_functions(tf_c_api_text[at:])) if at >= 0 else set()


class Report:
    def __init__(self):
        self.failed = False

    def compare(self, title, theirs, ours, excluded=()):
        theirs = [n for n in theirs if n not in excluded]
        missing = [n for n in theirs if n not in set(ours)]
        extra = [n for n in ours if n not in set(theirs)]
        status = "OK" if not missing else "MISSING"
        print(f"{title}: TensorFlow {len(theirs)}, Sluice {len(ours)} -- {status}")
        for n in missing:
            print(f"    missing: {n}")
        for n in extra:
            print(f"    extra:   {n}")
        if missing:
            self.failed = True
        return missing, extra


# Functions that TensorFlow's headers also overload for C++ callers (tensorflow::Tensor
# arguments), so that &name alone is ambiguous: the C function is picked by its C type, which
# fails to compile in a tree whose function has another type.
C_OVERLOADS = {
    "TFE_NewTensorHandle": "TFE_TensorHandle* (*)(const TF_Tensor*, TF_Status*)",
}


def signature_program(names, values, struct_fields):
    lines = [
        "#include <cstddef>",
        "#include <cstdio>",
        "#include <cxxabi.h>",
        "#include <typeinfo>",
    ]
    lines += [f'#include "{h}"' for h in EXPORT_HEADERS + [STATUS_HEADER] + TSTRING_HEADERS]
    lines += [
        "static const char* Name(const std::type_info& t) {",
        "  int status = 0;",
        "  return abi::__cxa_demangle(t.name(), nullptr, nullptr, &status);",
        "}",
        "int main() {",
    ]
    for n in names:
        address = f"static_cast<{C_OVERLOADS[n]}>(&{n})" if n in C_OVERLOADS else f"&{n}"
        lines.append(f'  std::printf("function {n}: %s\\n", Name(typeid(decltype({address}))));')
    for n in values:
        lines.append(f'  std::printf("value {n} = %lld\\n", static_cast<long long>({n}));')
    for s, fields in sorted(struct_fields.items()):
        lines.append(f'  std::printf("struct {s}: size %zu align %zu\\n", '
                     f'sizeof({s}), alignof({s}));')
        for f in fields:
            lines.append(f'  std::printf("  {s}.{f}: %s at %zu\\n", '
                         f'Name(typeid(decltype({s}::{f}))), offsetof({s}, {f}));')
    lines += ["  return 0;", "}"]
    return "\n".join(lines) + "\n"


def run_program(source, include_dir, workdir, tag):
    src = os.path.join(workdir, tag + ".cc")
    exe = os.path.join(workdir, tag)
    with open(src, "w", encoding="utf-8") as f:
        f.write(source)
    subprocess.run(["g++", "-std=c++17", "-w", "-I", include_dir, src, "-o", exe], check=True)
    return subprocess.run([exe], check=True, capture_output=True, text=True).stdout.splitlines()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tf_include", nargs="?", help="TensorFlow's include directory")
    parser.add_argument("--ours", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       "..", "include"))
    parser.add_argument("--signatures", action="store_true",
                        help="also compare function types, enum values and struct layouts")
    args = parser.parse_args()
    if args.tf_include is None:
        import tensorflow as tf  # only when no directory is given: importing it is slow

        args.tf_include = tf.sysconfig.get_include()
    theirs_dir, ours_dir = args.tf_include, os.path.normpath(args.ours)
    print(f"TensorFlow headers: {theirs_dir}\nSluice headers:     {ours_dir}\n")

    report = Report()
    excluded = python_section(read(os.path.join(theirs_dir, "tensorflow/c/c_api.h")))
    where_theirs, where_ours = {}, {}
    common = []
    all_macros_theirs, all_macros_ours, enum_names = [], [], []
    struct_fields = {}

    for header in EXPORT_HEADERS + [STATUS_HEADER] + TSTRING_HEADERS + FORWARDING_HEADERS:
        ours_path = os.path.join(ours_dir, header)
        if not os.path.exists(ours_path):
            print(f"{header}: MISSING from Sluice")
            report.failed = True
            continue
        theirs_text, ours_text = read(os.path.join(theirs_dir, header)), read(ours_path)
        if header in EXPORT_HEADERS:
            theirs, ours = exported_functions(theirs_text), exported_functions(ours_text)
            report.compare(f"{header} (TF_CAPI_EXPORT)", theirs, ours, excluded)
        elif header == STATUS_HEADER:
            theirs, ours = plain_functions(theirs_text, "TSL_"), plain_functions(ours_text, "TSL_")
            report.compare(f"{header} (TSL_ functions)", theirs, ours)
        elif header in TSTRING_HEADERS:
            theirs, ours = inline_functions(theirs_text), inline_functions(ours_text)
            report.compare(f"{header} (inline functions)", theirs, ours)
        else:
            theirs, ours = [], []
        for n in theirs:
            where_theirs.setdefault(n, header)
        for n in ours:
            where_ours.setdefault(n, header)
        theirs_macros, theirs_guard = macros(theirs_text)
        ours_macros, ours_guard = macros(ours_text)
        if theirs_guard != ours_guard:
            print(f"{header}: include guard {ours_guard}, TensorFlow's is {theirs_guard}")
            report.failed = True
        all_macros_theirs += theirs_macros
        all_macros_ours += ours_macros
        enum_names += [e for e in enumerators(theirs_text) if e in set(enumerators(ours_text))]
        theirs_structs, ours_structs = structs(theirs_text), structs(ours_text)
        for name, fields in theirs_structs.items():
            if name not in ours_structs:
                print(f"{header}: struct {name} MISSING from Sluice")
                report.failed = True
            elif ours_structs[name] != fields:
                print(f"{header}: struct {name} fields {ours_structs[name]}, TensorFlow's {fields}")
                report.failed = True
            else:
                struct_fields[name] = fields

    print()
    report.compare("macros", sorted(set(all_macros_theirs)), sorted(set(all_macros_ours)))
    for n in sorted(set(where_theirs) & set(where_ours)):
        if where_theirs[n] != where_ours[n]:
            print(f"misplaced: {n} is in {where_ours[n]}, "
                  f"TensorFlow declares it in {where_theirs[n]}")
            report.failed = True
        common.append(n)

    if excluded:
        print(f"\nleft out on purpose (TensorFlow's Python-bindings section of c_api.h, "
              f"{len(excluded)}): " + ", ".join(sorted(excluded)))

    if args.signatures:
        # Struct tags are usable as type names in C++; enum constants and the TF_ code macros
        # (which expand to them) are printed as values.
        code_macros = [m for m in sorted(set(all_macros_theirs) & set(all_macros_ours))
                       if re.fullmatch(r"TF_[A-Z_]+", m) and m not in
                       ("TF_CAPI_EXPORT", "TF_TSTRING_LITTLE_ENDIAN", "TF_OFFSET_OF_END",
                        "TF_PayloadVisitor", "TF_Bool")]
        values = sorted(set(enum_names)) + code_macros
        fields = struct_fields
        with tempfile.TemporaryDirectory() as workdir:
            theirs_out = run_program(signature_program(common, values, fields), theirs_dir,
                                     workdir, "theirs")
            ours_out = run_program(signature_program(common, values, fields), ours_dir, workdir,
                                   "ours")
        differences = [(a, b) for a, b in zip(theirs_out, ours_out) if a != b]
        if len(theirs_out) != len(ours_out):
            differences.append((f"{len(theirs_out)} lines", f"{len(ours_out)} lines"))
        print(f"\nsignatures: {len(common)} functions, {len(values)} values, {len(fields)} structs "
              f"compared -- {'OK' if not differences else 'DIFFERENT'}")
        for a, b in differences:
            print(f"    TensorFlow: {a}\n    Sluice:     {b}")
        if differences:
            report.failed = True

    print("\nresult: " + ("FAIL" if report.failed else "OK"))
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
