"""Memory bandwidth on this machine, the floor under output-bound rows (benchmarks/README.md, round 28):

    python benchmarks/bandwidth.py

memset and memcpy of 13.4 MB (the text of one 64 KiB call of huge REPs of a wide character, two bytes a
character) into pages already touched, and memset into fresh ones (a new buffer each time), best of 20/10."""
import ctypes, time
n = 13_400_000
buf = ctypes.create_string_buffer(n)
def best(f, k=20):
    b = 9
    for _ in range(k):
        t = time.perf_counter(); f(); b = min(b, time.perf_counter() - t)
    return b
warm = best(lambda: ctypes.memset(buf, 0x20, n))
src = ctypes.create_string_buffer(n)
copy = best(lambda: ctypes.memmove(buf, src, n))
def fresh():
    b = bytearray(n)  # calloc: fresh pages, faulted by the memset
    ctypes.memset((ctypes.c_char * n).from_buffer(b), 0x20, n)
fr = best(fresh, 10)
print(f"memset warm {n/warm/1e9:.1f} GB/s, memcpy warm {n/copy/1e9:.1f} GB/s, memset fresh {n/fr/1e9:.1f} GB/s")
