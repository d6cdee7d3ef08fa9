/*
 * Test-only stand-in for Windows' bcryptprimitives.dll, for Wine 8 (Debian 12's), which lacks it.
 * Rust's standard library imports ProcessPrng from it for random numbers (HashMap seeds), so a
 * Windows build of solitaire-agent does not start under Wine 8 without it. scripts/windows builds
 * this with mingw and puts it in the test Wine prefix only; it is never shipped, and real Windows
 * (8.1 and later) and newer Wine have the real DLL. ProcessPrng fills the buffer from
 * RtlGenRandom (advapi32's SystemFunction036), which Wine has.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG part = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, part))
            return FALSE;
        data += part;
        length -= part;
    }
    return TRUE;
}
