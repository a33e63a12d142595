# Arrow (SPEC 6): the Arrow C data interface (https://arrow.apache.org/docs/format/CDataInterface.html),
# read and written directly, so that sanitize_arrow needs no Arrow library at run time: pyarrow, polars,
# duckdb and datafusion export and import it. The fallback goes through pyarrow (_decoder_py.sanitize_arrow).

cdef extern from *:
    """
    #ifndef ARROW_C_DATA_INTERFACE
    #define ARROW_C_DATA_INTERFACE
    struct ArrowSchema {
      const char* format; const char* name; const char* metadata; int64_t flags; int64_t n_children;
      struct ArrowSchema** children; struct ArrowSchema* dictionary;
      void (*release)(struct ArrowSchema*); void* private_data;
    };
    struct ArrowArray {
      int64_t length; int64_t null_count; int64_t offset; int64_t n_buffers; int64_t n_children;
      const void** buffers; struct ArrowArray** children; struct ArrowArray* dictionary;
      void (*release)(struct ArrowArray*); void* private_data;
    };
    #endif
    #ifndef ARROW_C_STREAM_INTERFACE
    #define ARROW_C_STREAM_INTERFACE
    struct ArrowArrayStream {
      int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
      int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
      const char* (*get_last_error)(struct ArrowArrayStream*);
      void (*release)(struct ArrowArrayStream*);
      void* private_data;
    };
    #endif
    """
    struct ArrowSchema:
        const char *format
        const char *name
        const char *metadata
        int64_t flags
        int64_t n_children
        ArrowSchema **children
        ArrowSchema *dictionary
        void (*release)(ArrowSchema *) noexcept nogil
        void *private_data
    struct ArrowArray:
        int64_t length
        int64_t null_count
        int64_t offset
        int64_t n_buffers
        int64_t n_children
        const void **buffers
        ArrowArray **children
        ArrowArray *dictionary
        void (*release)(ArrowArray *) noexcept nogil
        void *private_data
    struct ArrowArrayStream:
        int (*get_schema)(ArrowArrayStream *, ArrowSchema *) noexcept nogil
        int (*get_next)(ArrowArrayStream *, ArrowArray *) noexcept nogil
        const char *(*get_last_error)(ArrowArrayStream *) noexcept nogil
        void (*release)(ArrowArrayStream *) noexcept nogil


cdef enum:
    ARROW_BINARY = 1  # "z" binary / "u" utf8: int32 offsets
    ARROW_LARGE = 2  # "Z" large binary / "U" large utf8: int64 offsets
    ARROW_VIEW = 3  # "vz" binary view / "vu" utf8 view: 16-byte views and variadic data buffers


cdef int arrow_kind(const char *fmt) except -1:
    if fmt == NULL:
        raise TypeError("an Arrow schema without a format")
    if (fmt[0] == b"z" or fmt[0] == b"u") and fmt[1] == 0:
        return ARROW_BINARY
    if (fmt[0] == b"Z" or fmt[0] == b"U") and fmt[1] == 0:
        return ARROW_LARGE
    if fmt[0] == b"v" and (fmt[1] == b"z" or fmt[1] == b"u") and fmt[2] == 0:
        return ARROW_VIEW
    raise TypeError(f"sanitize_arrow needs binary, large_binary, binary_view, string, large_string or "
                    f"string_view values, not Arrow format {(<bytes>fmt).decode('ascii', 'replace')!r}")


ctypedef struct Out8:  # the UTF-8 result: a growable byte buffer, offsets and validity
    uint8_t *data
    Py_ssize_t len
    Py_ssize_t cap
    int64_t *offsets
    Py_ssize_t offsets_cap
    uint8_t *validity
    Py_ssize_t validity_cap
    int64_t length
    int64_t null_count


cdef int put_bytes(Out8 *out, const uint8_t *text, Py_ssize_t n) except -1 nogil:
    """ASCII bytes (their own UTF-8), appended to out.data."""
    if out.len + n > out.cap:
        grow(<void **>&out.data, &out.cap, out.len + n, 1, 4096)
    memcpy(out.data + out.len, text, n)
    out.len += n
    return 0


cdef int put_utf8(Out8 *out, const uint32_t *cps, Py_ssize_t n) except -1 nogil:
    """UCS-4 to UTF-8 (the decoder never emits a surrogate), appended to out.data."""
    cdef Py_ssize_t i
    cdef uint8_t *d
    if n == 0:
        return 0
    if out.len + 4 * n > out.cap:
        grow(<void **>&out.data, &out.cap, out.len + 4 * n, 1, 4096)
    d = out.data + out.len
    for i in range(n):
        d += utf8_put(d, cps[i])
    out.len = d - out.data
    return 0


cdef void release_schema(ArrowSchema *schema) noexcept nogil:
    schema.release = NULL  # its strings are static; nothing else to free


cdef void release_array(ArrowArray *array) noexcept nogil:
    """Frees what export_array allocated: the buffers (one block) and the pointer array."""
    free(array.private_data)
    free(<void *>array.buffers)
    array.release = NULL


cdef void schema_capsule_destructor(object capsule) noexcept:
    cdef ArrowSchema *schema = <ArrowSchema *>PyCapsule_GetPointer(capsule, "arrow_schema")
    if schema.release != NULL:
        schema.release(schema)
    free(schema)


cdef void array_capsule_destructor(object capsule) noexcept:
    cdef ArrowArray *array = <ArrowArray *>PyCapsule_GetPointer(capsule, "arrow_array")
    if array.release != NULL:
        array.release(array)
    free(array)


@cython.final
cdef class ArrowStrings:
    """The result of ``sanitize_arrow``: a ``large_string`` array, exported through the Arrow PyCapsule
    interface (``pyarrow.array(result)``, ``polars.from_arrow(result)``, ``duckdb``...). Each export is a
    copy that the consumer owns, so the result can be exported any number of times."""

    cdef Out8 out

    def __len__(self):
        return self.out.length

    def __dealloc__(self):
        free(self.out.data)
        free(self.out.offsets)
        free(self.out.validity)

    @property
    def null_count(self):
        return self.out.null_count

    def __arrow_c_schema__(self):
        cdef ArrowSchema *schema = <ArrowSchema *>malloc(sizeof(ArrowSchema))
        if schema == NULL:
            raise MemoryError()
        schema.format = "U"
        schema.name = ""
        schema.metadata = NULL
        schema.flags = 2  # ARROW_FLAG_NULLABLE
        schema.n_children = 0
        schema.children = NULL
        schema.dictionary = NULL
        schema.release = release_schema
        schema.private_data = NULL
        return PyCapsule_New(schema, "arrow_schema", schema_capsule_destructor)

    def __arrow_c_array__(self, requested_schema=None):
        cdef ArrowArray *array = <ArrowArray *>malloc(sizeof(ArrowArray))
        cdef const void **buffers = <const void **>malloc(3 * sizeof(void *))
        cdef Py_ssize_t validity_bytes = (self.out.length + 7) // 8 if self.out.null_count else 0
        cdef Py_ssize_t offsets_bytes = (self.out.length + 1) * sizeof(int64_t)
        cdef uint8_t *block = <uint8_t *>malloc(validity_bytes + offsets_bytes + self.out.len + 8)
        if array == NULL or buffers == NULL or block == NULL:
            free(array)
            free(<void *>buffers)
            free(block)
            raise MemoryError()
        # one block, offsets first (8-byte aligned), then the data, then the validity bitmap
        memcpy(block, self.out.offsets, offsets_bytes)
        if self.out.len:
            memcpy(block + offsets_bytes, self.out.data, self.out.len)
        if validity_bytes:
            memcpy(block + offsets_bytes + self.out.len, self.out.validity, validity_bytes)
        buffers[0] = block + offsets_bytes + self.out.len if validity_bytes else NULL
        buffers[1] = block
        buffers[2] = block + offsets_bytes
        array.length = self.out.length
        array.null_count = self.out.null_count
        array.offset = 0
        array.n_buffers = 3
        array.n_children = 0
        array.buffers = buffers
        array.children = NULL
        array.dictionary = NULL
        array.release = release_array
        array.private_data = block
        return self.__arrow_c_schema__(), PyCapsule_New(array, "arrow_array", array_capsule_destructor)

    def to_pylist(self):
        """The strings (None for nulls), without pyarrow."""
        cdef int64_t i
        result = []
        for i in range(self.out.length):
            if self.out.validity != NULL and not (self.out.validity[i >> 3] >> (i & 7)) & 1:
                result.append(None)
            else:
                result.append((<bytes>(<char *>self.out.data)[self.out.offsets[i]:self.out.offsets[i + 1]]).decode("utf-8"))
        return result
