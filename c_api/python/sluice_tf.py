"""Runs frozen TensorFlow graphs through libtensorflow.so.2 with ctypes (no compiled extension).

A second language on Sluice's C API, as bindings of TensorFlow's C API are written:

    import sluice_tf
    lib = sluice_tf.Library("/path/to/libtensorflow.so.2")
    graph = lib.import_graph_def(open("model.pb", "rb").read())
    with lib.session(graph) as session:
        (probabilities,) = session.run({"images": batch}, ["probabilities"])

A step run many times can be made once, as TensorFlow's Session.make_callable does (through
Sluice's TF_SessionMakeCallable, tensorflow/c/sluice_device_memory.h):

        step = session.make_callable(["images"], ["probabilities"])
        (probabilities,) = step(batch)

Inputs and outputs are numpy arrays (numeric dtypes, bool, and object arrays of bytes for
strings). Every C API error becomes a TFError carrying TensorFlow's code and message.
"""
import ctypes

import numpy as np

# TF_Code values (tensorflow/c/tf_status.h).
CODE_NAMES = {
    0: "OK", 1: "CANCELLED", 2: "UNKNOWN", 3: "INVALID_ARGUMENT", 4: "DEADLINE_EXCEEDED",
    5: "NOT_FOUND", 6: "ALREADY_EXISTS", 7: "PERMISSION_DENIED", 8: "RESOURCE_EXHAUSTED",
    9: "FAILED_PRECONDITION", 10: "ABORTED", 11: "OUT_OF_RANGE", 12: "UNIMPLEMENTED",
    13: "INTERNAL", 14: "UNAVAILABLE", 15: "DATA_LOSS", 16: "UNAUTHENTICATED",
}

# TF_DataType <-> numpy.
TF_STRING = 7
_NUMPY_OF_TF = {
    1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 5: np.int16, 6: np.int8,
    9: np.int64, 10: np.bool_, 17: np.uint16, 19: np.float16, 22: np.uint32, 23: np.uint64,
    8: np.complex64, 18: np.complex128,
}
_TF_OF_NUMPY = {np.dtype(v): k for k, v in _NUMPY_OF_TF.items()}

TSTRING_BYTES = 24  # sizeof(TF_TString)


class TFError(Exception):
    """An error from the C API: `code` is the TF_Code number, `code_name` its name."""

    def __init__(self, code, message):
        super().__init__("%s: %s" % (CODE_NAMES.get(code, str(code)), message))
        self.code = code
        self.code_name = CODE_NAMES.get(code, str(code))
        self.message = message


class _Output(ctypes.Structure):
    _fields_ = [("oper", ctypes.c_void_p), ("index", ctypes.c_int)]


class _Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t),
                ("data_deallocator", ctypes.c_void_p)]


def _declare(lib):
    """Sets the C signatures of the functions used here."""
    p, i, sz, i64 = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t, ctypes.c_int64
    signatures = {
        "TF_Version": (ctypes.c_char_p, []),
        "TF_NewStatus": (p, []), "TF_DeleteStatus": (None, [p]),
        "TF_GetCode": (i, [p]), "TF_Message": (ctypes.c_char_p, [p]),
        "TF_NewBufferFromString": (ctypes.POINTER(_Buffer), [ctypes.c_char_p, sz]),
        "TF_DeleteBuffer": (None, [ctypes.POINTER(_Buffer)]),
        "TF_NewGraph": (p, []), "TF_DeleteGraph": (None, [p]),
        "TF_NewImportGraphDefOptions": (p, []), "TF_DeleteImportGraphDefOptions": (None, [p]),
        "TF_ImportGraphDefOptionsSetPrefix": (None, [p, ctypes.c_char_p]),
        "TF_GraphImportGraphDef": (None, [p, ctypes.POINTER(_Buffer), p, p]),
        "TF_GraphOperationByName": (p, [p, ctypes.c_char_p]),
        "TF_OperationNumOutputs": (i, [p]),
        "TF_OperationName": (ctypes.c_char_p, [p]),
        "TF_TryEvaluateConstant": (ctypes.c_ubyte, [p, _Output, ctypes.POINTER(p), p]),
        "TF_AddGradientsWithPrefix": (None, [p, ctypes.c_char_p, ctypes.POINTER(_Output), i,
                                             ctypes.POINTER(_Output), i,
                                             ctypes.POINTER(_Output), p,
                                             ctypes.POINTER(_Output)]),
        "TF_NewSessionOptions": (p, []), "TF_DeleteSessionOptions": (None, [p]),
        "TF_NewSession": (p, [p, p, p]), "TF_CloseSession": (None, [p, p]),
        "TF_DeleteSession": (None, [p, p]),
        "TF_SessionRun": (None, [p, p, ctypes.POINTER(_Output), ctypes.POINTER(p), i,
                                 ctypes.POINTER(_Output), ctypes.POINTER(p), i, p, i, p, p]),
        "TF_AllocateTensor": (p, [i, ctypes.POINTER(i64), i, sz]),
        "TF_DeleteTensor": (None, [p]), "TF_TensorType": (i, [p]),
        "TF_NumDims": (i, [p]), "TF_Dim": (i64, [p, i]),
        "TF_TensorByteSize": (sz, [p]), "TF_TensorData": (p, [p]),
        "TF_TensorElementCount": (i64, [p]),
        "TF_SessionMakeCallable": (None, [p, ctypes.POINTER(_Buffer), ctypes.POINTER(i64), p]),
        "TF_SessionRunCallable": (None, [p, i64, ctypes.POINTER(p), i, ctypes.POINTER(p), i, p,
                                         p]),
        "TF_SessionReleaseCallable": (None, [p, i64, p]),
        "TF_StringInit": (None, [p]), "TF_StringCopy": (None, [p, ctypes.c_char_p, sz]),
        "TF_StringGetDataPointer": (p, [p]), "TF_StringGetSize": (sz, [p]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes


class Library:
    """The loaded C library; makes graphs and sessions."""

    def __init__(self, path):
        self.c = ctypes.CDLL(path)
        _declare(self.c)

    def version(self):
        return self.c.TF_Version().decode()

    def _check(self, status):
        code = self.c.TF_GetCode(status)
        if code != 0:
            message = self.c.TF_Message(status).decode(errors="replace")
            raise TFError(code, message)

    def _call(self, function, *args):
        """Calls a C function whose last argument is a TF_Status, raising on error."""
        status = self.c.TF_NewStatus()
        try:
            result = function(*args, status)
            self._check(status)
            return result
        finally:
            self.c.TF_DeleteStatus(status)

    def import_graph_def(self, graph_def_bytes, prefix=""):
        graph = Graph(self)
        buffer = self.c.TF_NewBufferFromString(graph_def_bytes, len(graph_def_bytes))
        options = self.c.TF_NewImportGraphDefOptions()
        try:
            if prefix:
                self.c.TF_ImportGraphDefOptionsSetPrefix(options, prefix.encode())
            self._call(self.c.TF_GraphImportGraphDef, graph.handle, buffer, options)
        except TFError:
            graph.close()
            raise
        finally:
            self.c.TF_DeleteImportGraphDefOptions(options)
            self.c.TF_DeleteBuffer(buffer)
        return graph

    def session(self, graph):
        return Session(self, graph)

    # Tensors.

    def tensor_from_numpy(self, array):
        array = np.asarray(array)
        dims = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
        if array.dtype.kind in ("O", "S", "U"):
            flat = [x.encode() if isinstance(x, str) else bytes(x) for x in array.reshape(-1)]
            tensor = self.c.TF_AllocateTensor(TF_STRING, dims, array.ndim,
                                              TSTRING_BYTES * len(flat))
            if not tensor:
                raise TFError(3, "cannot allocate a string tensor of shape %s" % (array.shape,))
            base = self.c.TF_TensorData(tensor)
            for k, value in enumerate(flat):
                element = base + k * TSTRING_BYTES
                self.c.TF_StringInit(element)
                self.c.TF_StringCopy(element, value, len(value))
            return tensor
        if array.dtype not in _TF_OF_NUMPY:
            raise TFError(3, "numpy dtype %s has no TensorFlow dtype here" % array.dtype)
        array = np.ascontiguousarray(array)
        tensor = self.c.TF_AllocateTensor(_TF_OF_NUMPY[array.dtype], dims, array.ndim,
                                          array.nbytes)
        if not tensor:
            raise TFError(3, "cannot allocate a tensor of shape %s" % (array.shape,))
        ctypes.memmove(self.c.TF_TensorData(tensor), array.ctypes.data, array.nbytes)
        return tensor

    def tensor_to_numpy(self, tensor):
        shape = tuple(self.c.TF_Dim(tensor, d) for d in range(self.c.TF_NumDims(tensor)))
        dtype = self.c.TF_TensorType(tensor)
        data = self.c.TF_TensorData(tensor)
        if dtype == TF_STRING:
            count = self.c.TF_TensorElementCount(tensor)
            values = []
            for k in range(count):
                element = data + k * TSTRING_BYTES
                size = self.c.TF_StringGetSize(element)
                values.append(ctypes.string_at(self.c.TF_StringGetDataPointer(element), size))
            out = np.empty(count, dtype=object)
            out[:] = values
            return out.reshape(shape)
        if dtype not in _NUMPY_OF_TF:
            raise TFError(12, "TensorFlow dtype %d has no numpy dtype here" % dtype)
        numpy_dtype = np.dtype(_NUMPY_OF_TF[dtype])
        count = int(np.prod(shape, dtype=np.int64)) if shape else 1
        raw = ctypes.string_at(data, count * numpy_dtype.itemsize)
        return np.frombuffer(raw, dtype=numpy_dtype).reshape(shape).copy()


class Graph:
    def __init__(self, lib):
        self.lib = lib
        self.handle = lib.c.TF_NewGraph()

    def output(self, name):
        """`name` is "op" or "op:index"; raises NOT_FOUND/OUT_OF_RANGE as the C API would."""
        op_name, _, index = name.partition(":")
        index = int(index) if index else 0
        op = self.lib.c.TF_GraphOperationByName(self.handle, op_name.encode())
        if not op:
            raise TFError(5, "no operation named '%s' in the graph" % op_name)
        return _Output(op, index)

    def add_gradients(self, ys, xs, dys=None, prefix=None):
        """Adds the gradients of sum(ys) with respect to xs (TF_AddGradientsWithPrefix), seeded
        with the tensors named in `dys` if given; returns one "op:index" name per x, None where
        no gradient reaches it. Names are as `output` takes them."""
        def outputs(names):
            return (_Output * max(len(names), 1))(*[self.output(n) for n in names])

        y, x = outputs(ys), outputs(xs)
        dx = None if dys is None else outputs(dys)
        grads = (_Output * max(len(xs), 1))()
        c = self.lib.c
        status = c.TF_NewStatus()
        try:
            c.TF_AddGradientsWithPrefix(self.handle, prefix.encode() if prefix else None, y,
                                        len(ys), x, len(xs), dx, status, grads)
            self.lib._check(status)
        finally:
            c.TF_DeleteStatus(status)
        return [None if not g.oper else "%s:%d" % (c.TF_OperationName(g.oper).decode(), g.index)
                for g in grads[:len(xs)]]

    def try_evaluate_constant(self, name):
        """The value of tensor `name` as a numpy array when it depends on nothing fed or
        stateful (TF_TryEvaluateConstant), else None."""
        c = self.lib.c
        result = ctypes.c_void_p()
        status = c.TF_NewStatus()
        try:
            evaluated = c.TF_TryEvaluateConstant(self.handle, self.output(name),
                                                 ctypes.byref(result), status)
            self.lib._check(status)
        finally:
            c.TF_DeleteStatus(status)
        if not evaluated:
            return None
        try:
            return self.lib.tensor_to_numpy(result.value)
        finally:
            c.TF_DeleteTensor(result.value)

    def close(self):
        if self.handle:
            self.lib.c.TF_DeleteGraph(self.handle)
            self.handle = None


def _varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if not n:
            out.append(byte)
            return bytes(out)
        out.append(byte | 0x80)


def _callable_options(feeds, fetches):
    """A serialized CallableOptions: feed = 1 and fetch = 2, repeated strings."""
    out = b""
    for number, names in ((1, feeds), (2, fetches)):
        for name in names:
            data = name.encode()
            out += _varint(number << 3 | 2) + _varint(len(data)) + data
    return out


class Callable:
    """A step made once by Session.make_callable: call it with the feeds' arrays, in order."""

    def __init__(self, session, feeds, fetches):
        self.session = session
        self.num_feeds = len(feeds)
        self.num_fetches = len(fetches)
        lib = session.lib
        options = _callable_options(feeds, fetches)
        buffer = lib.c.TF_NewBufferFromString(options, len(options))
        handle = ctypes.c_int64(-1)
        try:
            lib._call(lib.c.TF_SessionMakeCallable, session.handle, buffer, ctypes.byref(handle))
        finally:
            lib.c.TF_DeleteBuffer(buffer)
        self.handle = handle.value

    def __call__(self, *arrays):
        lib = self.session.lib
        c = lib.c
        values = (ctypes.c_void_p * max(len(arrays), 1))()
        results = (ctypes.c_void_p * max(self.num_fetches, 1))()
        try:
            for k, array in enumerate(arrays):
                values[k] = lib.tensor_from_numpy(array)
            lib._call(c.TF_SessionRunCallable, self.session.handle, self.handle, values,
                      len(arrays), results, self.num_fetches, None)
            return [lib.tensor_to_numpy(results[k]) for k in range(self.num_fetches)]
        finally:
            for k in range(len(arrays)):
                if values[k]:
                    c.TF_DeleteTensor(values[k])
            for k in range(self.num_fetches):
                if results[k]:
                    c.TF_DeleteTensor(results[k])

    def release(self):
        lib = self.session.lib
        lib._call(lib.c.TF_SessionReleaseCallable, self.session.handle, self.handle)


class Session:
    def __init__(self, lib, graph):
        self.lib = lib
        self.graph = graph
        options = lib.c.TF_NewSessionOptions()
        try:
            self.handle = lib._call(lib.c.TF_NewSession, graph.handle, options)
        finally:
            lib.c.TF_DeleteSessionOptions(options)

    def run(self, feeds, fetches):
        """feeds: {name: array}; fetches: [name]. Returns the fetched arrays, in order."""
        c = self.lib.c
        names = list(feeds)
        inputs = (_Output * max(len(names), 1))(*[self.graph.output(n) for n in names])
        outputs = (_Output * max(len(fetches), 1))(*[self.graph.output(n) for n in fetches])
        values = (ctypes.c_void_p * max(len(names), 1))()
        results = (ctypes.c_void_p * max(len(fetches), 1))()
        try:
            for k, name in enumerate(names):
                values[k] = self.lib.tensor_from_numpy(feeds[name])
            self.lib._call(c.TF_SessionRun, self.handle, None, inputs, values, len(names),
                           outputs, results, len(fetches), None, 0, None)
            return [self.lib.tensor_to_numpy(results[k]) for k in range(len(fetches))]
        finally:
            for k in range(len(names)):
                if values[k]:
                    c.TF_DeleteTensor(values[k])
            for k in range(len(fetches)):
                if results[k]:
                    c.TF_DeleteTensor(results[k])

    def make_callable(self, feeds, fetches):
        """feeds, fetches: names ("x" or "x:0"). Returns a Callable."""
        return Callable(self, list(feeds), list(fetches))

    def close(self):
        if self.handle:
            self.lib._call(self.lib.c.TF_DeleteSession, self.handle)
            self.handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
