// The graph outputs of an ONNX ModelProto (name and shape), read straight from the protobuf bytes
// so the vector size is known at boot without starting the runtime; initializers are skipped.

export type OnnxOutput = { name: string; shape: Array<number | string> };

type Field = { number: number; wire: number; value: number; start: number; end: number };

/** The fields of one message in bytes[start, end); throws on truncated or unknown wire types. */
function* fields(bytes: Uint8Array, start: number, end: number): Generator<Field> {
  let at = start;
  const varint = () => {
    let result = 0;
    for (let shift = 1; ; shift *= 128) {
      if (at >= end) throw new Error("truncated varint");
      const b = bytes[at++]!;
      result += (b & 127) * shift;
      if (b < 128) return result;
    }
  };
  while (at < end) {
    const key = varint();
    const wire = key % 8;
    const number = Math.floor(key / 8);
    if (wire === 0) {
      yield { number, wire, value: varint(), start: at, end: at };
      continue;
    }
    if (wire === 2) {
      const length = varint();
      if (at + length > end) throw new Error("truncated field");
      yield { number, wire, value: length, start: at, end: at + length };
      at += length;
      continue;
    }
    if (wire === 1 || wire === 5) {
      at += wire === 1 ? 8 : 4;
      continue;
    }
    throw new Error(`unsupported wire type ${wire}`);
  }
}

const decode = (bytes: Uint8Array, f: Field) =>
  new TextDecoder().decode(bytes.subarray(f.start, f.end));
const child = (bytes: Uint8Array, parent: Field, number: number) => {
  for (const f of fields(bytes, parent.start, parent.end)) {
    if (f.number === number && f.wire === 2) return f;
  }
  return undefined;
};

function output(bytes: Uint8Array, info: Field): OnnxOutput {
  let name = "";
  for (const f of fields(bytes, info.start, info.end)) {
    if (f.number === 1 && f.wire === 2) name = decode(bytes, f);
  }
  const type = child(bytes, info, 2);
  const tensor = type && child(bytes, type, 1);
  const shape = tensor && child(bytes, tensor, 2);
  const dims: Array<number | string> = [];
  if (shape) {
    for (const dim of fields(bytes, shape.start, shape.end)) {
      if (dim.number !== 1 || dim.wire !== 2) continue;
      let value: number | string = "?";
      for (const f of fields(bytes, dim.start, dim.end)) {
        if (f.number === 1 && f.wire === 0) value = f.value;
        if (f.number === 2 && f.wire === 2) value = decode(bytes, f);
      }
      dims.push(value);
    }
  }
  return { name, shape: dims };
}

export function onnxOutputs(bytes: Uint8Array): OnnxOutput[] {
  let graph: Field | undefined;
  for (const f of fields(bytes, 0, bytes.length)) if (f.number === 7 && f.wire === 2) graph = f;
  if (!graph) throw new Error("no graph");
  const outputs: OnnxOutput[] = [];
  for (const f of fields(bytes, graph.start, graph.end)) {
    if (f.number === 12 && f.wire === 2) outputs.push(output(bytes, f));
  }
  return outputs;
}
