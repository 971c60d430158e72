"""The exceptions hipasm raises (besides TypeError / ValueError for bad arguments)."""


class HipasmError(RuntimeError):
    """Base of hipasm's own errors."""


class SimError(HipasmError):
    """The simulator or the code-object loader refused: bad code object, bad launch, a fault."""


class HipError(HipasmError):
    """A HIP runtime call failed; the message has hipGetErrorName and hipGetErrorString."""


class BuildError(HipasmError):
    """hipasm.build: the compiler failed; the message is the compiler's."""


class CheckerError(HipasmError):
    """The simulator's checker found problems in a launch (missing s_nop, s_waitcnt, LDS race, ...).

    .findings: the findings as dicts (rule, pc, instruction, message, source, count, ...);
    .summary: the findings grouped by rule, as hipasm-sim prints them."""

    def __init__(self, kernel, findings, summary):
        self.kernel, self.findings, self.summary = kernel, findings, summary
        errors = [f for f in findings if not f["allowed"]]
        lines = [f"the checker found {len(errors)} problem{'s' if len(errors) != 1 else ''} in '{kernel}':"]
        lines += [f"  {f['message']}" for f in errors]
        lines.append(summary.rstrip())
        super().__init__("\n".join(lines))
