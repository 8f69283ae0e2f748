import { z } from "zod";
import { REGISTER_KINDS } from "../config/schema/sources.js";
import { readRegister } from "./health.js";
import { REGISTER_READERS } from "./registers.js";
import { checkShape } from "./shape-bound.js";
const parseRequestSchema = z.object({
  kind: z.enum(REGISTER_KINDS),
  bytes: z.custom((value) => value instanceof Uint8Array),
  lastRows: z.number().int().min(0).optional(),
  mayEmpty: z.boolean(),
  minShrinkRatio: z.number(),
  shrinkFloor: z.number(),
  maxCells: z.number().int(),
  maxLineBytes: z.number().int(),
  maxUnpackedBytes: z.number().int()
});
function readChecked(request) {
  const reader = REGISTER_READERS[request.kind];
  const capped = {
    ...reader,
    read: (bytes) => {
      checkShape(bytes, request);
      return reader.read(bytes);
    }
  };
  return readRegister(capped, request.bytes, {
    ...request,
    lastGood: request.lastRows === void 0 ? void 0 : { rows: request.lastRows }
  });
}
export {
  parseRequestSchema,
  readChecked
};
