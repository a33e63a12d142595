/* The CJK floor's yardstick (round 62): what simdutf, the fastest UTF-8 transcoder we know of, costs on a
   corpus's text, to set beside the core's own decode (acp_decode_three_byte_run in _parser_c.pxi).

   The core decodes the text between escape sequences and controls; a transcoder that replaced its decode would
   be called on the same segments (mode 0). Mode 1 converts all of the text at once, with the escapes and
   controls taken out first: a bound for a parser that must stop at each escape.

   Not built by the package or CI: simdutf is not a dependency. To run it (simdutf's repository at hand):

       python3 simdutf/singleheader/amalgamate.py      # writes simdutf.h and simdutf.cpp there
       g++ -O3 -std=c++20 -I simdutf/singleheader -o segments benchmarks/simdutf_segments.cpp
           simdutf/singleheader/simdutf.cpp            # (one command)
       python3 -c "import sys; sys.path.insert(0, 'benchmarks'); import corpora;
           d = corpora.cjk_colored(10**6); open('cjk.bin', 'wb').write(d[: d.rfind(b'\n') + 1])"
       ./segments cjk.bin 0 300                        # MB/s of input, with the kernel the CPU picked
       valgrind --tool=callgrind --toggle-collect='convert_*' ./segments cjk.bin 0 1   # instructions

   (valgrind has no AVX-512, so under it simdutf picks its AVX2 kernel; natively it picks the best the CPU
   has.) */
#include "simdutf.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

struct Segment {
    size_t start, length;
};

// Each segment converted on its own, as a parser would hand them over.
__attribute__((noinline)) size_t convert_segments(const char *data, const std::vector<Segment> &segments,
                                                  char32_t *out) {
    size_t total = 0;
    for (const Segment &segment : segments) {
        size_t count = simdutf::convert_utf8_to_utf32(data + segment.start, segment.length, out + total);
        if (count == 0)
            std::abort();  // (invalid UTF-8: the corpora have none)
        total += count;
    }
    return total;
}

// All the text in one call.
__attribute__((noinline)) size_t convert_whole(const char *text, size_t length, char32_t *out) {
    return simdutf::convert_utf8_to_utf32(text, length, out);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE [0: segments | 1: whole] [repeats]\n", argv[0]);
        return 2;
    }
    std::string data;
    if (FILE *file = std::fopen(argv[1], "rb")) {
        char buffer[65536];
        size_t got;
        while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0)
            data.append(buffer, got);
        std::fclose(file);
    } else {
        std::perror(argv[1]);
        return 1;
    }
    // The segments: the bytes between controls (below 0x20) and escape sequences (ESC, its next byte, then up
    // to a final byte 0x40-0x7E: the corpora's CSIs), and the text they make together.
    std::vector<Segment> segments;
    std::string text;
    size_t i = 0, n = data.size(), start = 0;
    while (i < n) {
        unsigned char byte = data[i];
        if (byte >= 0x20) {
            i++;
            continue;
        }
        if (i > start) {
            segments.push_back({start, i - start});
            text.append(data, start, i - start);
        }
        if (byte == 0x1B) {
            i += 2;
            while (i < n && !((unsigned char)data[i] >= 0x40 && (unsigned char)data[i] <= 0x7E))
                i++;
        }
        start = ++i;
    }
    if (n > start) {
        segments.push_back({start, n - start});
        text.append(data, start, n - start);
    }
    int whole = argc > 2 && std::atoi(argv[2]) == 1;
    int repeats = argc > 3 && std::atoi(argv[3]) > 1 ? std::atoi(argv[3]) : 1;  // (at least one: it divides)
    std::vector<char32_t> out(n + 64);
    size_t count = 0;
    auto begin = std::chrono::steady_clock::now();
    for (int r = 0; r < repeats; r++)
        count += whole ? convert_whole(text.data(), text.size(), out.data())
                       : convert_segments(data.data(), segments, out.data());
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    std::printf("simdutf %s, kernel %s, %s: %zu segments, %zu text bytes of %zu; %zu characters a pass, "
                "%.0f MB/s of input\n",
                SIMDUTF_VERSION, std::string(simdutf::get_active_implementation()->name()).c_str(),
                whole ? "all the text in one call" : "a call a segment", segments.size(), text.size(), n,
                count / repeats, (double)n * repeats / seconds / 1e6);
}
