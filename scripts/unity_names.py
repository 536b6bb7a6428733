#!/usr/bin/env python3
"""Unity builds' guard: functions with internal linkage of one name in two .cpp files of a library.

CMake's unity build (CMakeLists.txt) compiles a library's .cpp files eight to a translation unit.
Two files' anonymous-namespace (or `static`) functions of one name then meet: the same signature
fails to compile, but two signatures overload, and a call in one file can silently bind to the
other file's function. This lists every function declared directly in an anonymous namespace, or
`static` at namespace scope, whose name two .cpp files of one folder (one library; tests/ is one
target) both declare, and exits 1 if there is one. Names, not signatures: a false alarm costs a
rename. Usage: scripts/unity_names.py [ROOT]
"""
import collections
import pathlib
import re
import sys

TOKEN = re.compile(r"[A-Za-z_]\w*|::|\S")
KEYWORDS = {"const", "constexpr", "inline", "static", "template", "typename", "operator", "auto",
            "unsigned", "signed", "volatile", "decltype", "thread_local", "consteval", "constinit",
            "requires", "explicit", "noreturn", "nodiscard", "maybe_unused"}


def strip(text):
    """The text without comments, string and character literals or preprocessor lines."""
    text = re.sub(r'R"(\w*)\((?:.|\n)*?\)\1"', '""', text)
    text = re.sub(r"//[^\n]*|/\*(?:.|\n)*?\*/", " ", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', '""', text)
    return re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)


def declared(statement):
    """The function a namespace-scope statement declares or defines, if it is one: the name before
    its first parenthesis outside template brackets. Not a type's or a variable's: two of those
    in one translation unit do not compile, which the unity build itself reports."""
    if not statement or statement[0] in ("using", "namespace", "struct", "class", "enum", "typedef"):
        return None
    depth, last = 0, None
    for token in statement:
        if token == "<":
            depth += 1
        elif token == ">":
            depth = max(depth - 1, 0)
        elif depth == 0 and token in ("=", "{", ";"):
            return None
        elif depth == 0 and token == "(":
            return last if last and not last.isupper() else None
        elif depth == 0:
            last = token if re.match(r"[A-Za-z_]\w*$", token) and token not in KEYWORDS else None
    return None


def internal_names(text):
    """Names declared directly in an anonymous namespace, or `static` in a named one."""
    scopes, statement, names = [], [], set()
    tokens = TOKEN.findall(strip(text))
    for i, token in enumerate(tokens):
        if token == "{":
            opener = statement[-2:] if statement else []
            if statement[-1:] == ["namespace"]:
                scopes.append("anonymous")
            elif len(opener) == 2 and opener[0] == "namespace":
                scopes.append("namespace")
            else:
                in_namespace = not scopes or scopes[-1] in ("anonymous", "namespace")
                if in_namespace and statement and is_internal(scopes, statement):
                    names.add(declared(statement))
                scopes.append("block")
            statement = []
        elif token == "}":
            if scopes:
                scopes.pop()
            statement = []
        elif token == ";":
            if (not scopes or scopes[-1] in ("anonymous", "namespace")) and statement:
                if is_internal(scopes, statement):
                    names.add(declared(statement + [";"]))
            statement = []
        else:
            statement.append(token)
    names.discard(None)
    return names


def is_internal(scopes, statement):
    if "anonymous" in scopes and scopes[-1] == "anonymous":
        return statement[0] != "namespace" and statement[:2] != ["using", "namespace"]
    return statement[0] == "static" or statement[:3] == ["template", "<", ">"] and "static" in statement


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    folders = collections.defaultdict(list)
    for path in sorted(root.rglob("*.cpp")):
        parts = path.relative_to(root).parts
        if parts[0].startswith(("build", ".")) or "fuzz" in parts or parts[0] == "bench":
            continue
        folders["tests" if parts[0] == "tests" else str(path.parent.relative_to(root))].append(path)
    clashes = 0
    for folder, paths in sorted(folders.items()):
        owners = collections.defaultdict(list)
        for path in paths:
            for name in internal_names(path.read_text()):
                owners[name].append(path.name)
        for name, files in sorted(owners.items()):
            if len(files) > 1 and name != "main":
                clashes += 1
                print(f"{folder}: '{name}' has internal linkage in {', '.join(files)}")
    if clashes:
        print(f"unity_names.py: {clashes} names clash in a unity build: rename all but one", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
