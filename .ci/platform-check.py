#!/usr/bin/env python3
"""What Linux CI can check of the Apple platforms Package.swift declares (README, "Platforms").

Linux cannot compile for macOS, iOS, tvOS, watchOS or visionOS, so this reads the Swift sources:

1. Every import of a module that exists on one side only (Glibc, Musl, FoundationNetworking,
   CCrypto, CWebSockets on Linux; Darwin, CryptoKit, AppKit, UIKit, ... on Apple platforms) must sit
   in a `#if`/`#elseif` branch whose condition is `canImport` of that module (or, for the Linux
   fallbacks, `!canImport` of the Apple module they replace).
2. The library products (what an app links) use no API that the iOS, tvOS, watchOS or visionOS SDK
   lacks (`Process`, `NSTask`, `homeDirectoryForCurrentUser`, ...) and no Linux-only C API, outside
   a branch that excludes Apple platforms.
3. Package.swift declares the five Apple platforms at the floor `Synchronization.Mutex` needs.

Usage: python3 .ci/platform-check.py [ROOT]   (exit 1 and one line per finding on failure)
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")

# module -> conditions (exact, whitespace removed) that may guard its import
GUARDS = {
    "Glibc": {"canImport(Glibc)"},
    "Musl": {"canImport(Musl)"},
    "Darwin": {"canImport(Darwin)"},
    "FoundationNetworking": {"canImport(FoundationNetworking)"},
    "CryptoKit": {"canImport(CryptoKit)"},
    "CCrypto": {"canImport(CCrypto)", "!canImport(CryptoKit)"},
    "CWebSockets": {"canImport(CWebSockets)", "!canImport(Darwin)"},
    "AppKit": {"canImport(AppKit)"},
    "UIKit": {"canImport(UIKit)"},
    "WatchKit": {"canImport(WatchKit)"},
    "Network": {"canImport(Network)"},
    "os": {"canImport(os)"},
    "Security": {"canImport(Security)"},
    "SQLite3": {"canImport(SQLite3)"},
}

# Conditions under which code is not compiled for Apple platforms.
NOT_APPLE = {"!canImport(Darwin)", "os(Linux)", "canImport(Glibc)", "canImport(Musl)",
             "canImport(FoundationNetworking)", "canImport(CCrypto)", "canImport(CWebSockets)"}

# APIs an app target on iOS/tvOS/watchOS/visionOS cannot use (macOS-only Foundation, or Linux C).
UNAVAILABLE = [
    (r"\bProcess\s*\(", "Foundation.Process is macOS-only"),
    (r"\bNSTask\b", "NSTask is macOS-only"),
    (r"\bhomeDirectoryForCurrentUser\b", "FileManager.homeDirectoryForCurrentUser is macOS-only"),
    (r"\bNSWorkspace\b", "NSWorkspace is AppKit (macOS-only)"),
    (r"\bHost\.current\b", "Host is macOS-only"),
    (r"\bNSUserUnixTask\b|\bNSAppleScript\b", "macOS-only Foundation API"),
    (r"\b(epoll_\w+|inotify_\w+|eventfd|signalfd|__errno_location)\s*\(", "Linux-only C API"),
]

# The targets of the library products an app depends on (Package.swift `products`), with the
# modules they re-export.
LIBRARY_TARGETS = ["GraphQLSDL", "ModelVocabulary", "ModelGenIR", "ModelGenAPISchema",
                   "ModelGenTemplating", "ModelGenSwift", "ModelGen", "LazyModel",
                   "LazyModelDataStore", "LazyModelAPI"]

IMPORT = re.compile(r"^\s*(?:@_exported\s+|@testable\s+|@preconcurrency\s+)*import\s+(?:\w+\s+)?(\w+)")
DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")


def check_file(path, library, findings):
    stack = []  # each frame: list of branch conditions so far; the last is the active one
    with open(path, encoding="utf-8") as source:
        for number, line in enumerate(source, 1):
            match = DIRECTIVE.match(line)
            if match:
                kind, rest = match.group(1), re.sub(r"\s+", "", match.group(2).split("//")[0])
                if kind == "if":
                    stack.append([rest])
                elif kind == "elseif":
                    stack[-1].append(rest)
                elif kind == "else":
                    previous = stack[-1][-1]
                    negated = previous[1:] if previous.startswith("!") else "!" + previous
                    stack[-1].append(negated if len(stack[-1]) == 1 else "else")
                else:
                    stack.pop()
                continue
            # The active branch of each enclosing #if (an #else after one #if is its negation).
            active = {frame[-1] for frame in stack}
            code = line.split("//")[0]
            imported = IMPORT.match(code)
            if imported and imported.group(1) in GUARDS:
                module = imported.group(1)
                if not (GUARDS[module] & active):
                    findings.append(f"{path}:{number}: import {module} outside "
                                    f"#if {' or '.join(sorted(GUARDS[module]))}")
            if library and not (NOT_APPLE & active):
                for pattern, reason in UNAVAILABLE:
                    if re.search(pattern, code):
                        findings.append(f"{path}:{number}: {reason} (not on iOS/tvOS/watchOS/visionOS)")


def main():
    findings = []
    checked = 0
    for top in ["Sources", "Tests", "Benchmarks", "Plugins", "Examples"]:
        for directory, names, files in os.walk(os.path.join(ROOT, top)):
            names[:] = [n for n in names if not n.startswith(".")]
            for name in sorted(files):
                if name.endswith(".swift"):
                    path = os.path.join(directory, name)
                    relative = os.path.relpath(path, ROOT)
                    parts = relative.split(os.sep)
                    library = parts[0] == "Sources" and parts[1] in LIBRARY_TARGETS
                    check_file_at(path, relative, library, findings)
                    checked += 1
    package = open(os.path.join(ROOT, "Package.swift"), encoding="utf-8").read()
    for platform in [".macOS(.v15)", ".iOS(.v18)", ".tvOS(.v18)", ".watchOS(.v11)", ".visionOS(.v2)"]:
        if platform not in package:
            findings.append(f"Package.swift: platforms lacks {platform}")
    for finding in findings:
        print(finding)
    print(f"platform check: {checked} Swift files, {len(findings)} findings", file=sys.stderr)
    return 1 if findings else 0


def check_file_at(path, relative, library, findings):
    local = []
    check_file(path, library, local)
    findings.extend(f.replace(path, relative, 1) for f in local)


if __name__ == "__main__":
    sys.exit(main())
