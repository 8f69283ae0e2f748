import { z } from "zod";
import { aliasCycle, identityKeyOf } from "../../text/holder-aliases.js";
const nameOrLei = z.string().trim().min(1).refine((text) => identityKeyOf(text) !== "", "must name a holder (letters or digits) or an LEI");
const aliasSchema = z.strictObject({
  alias: nameOrLei.describe("A holder name (spelling-insensitive) or an LEI, as a register gives it."),
  holder: nameOrLei.describe(
    "The canonical holder it is: a name (shown on the holder page) or an LEI, itself aliased further if the table says so."
  )
});
const holdersSchema = z.strictObject({
  aliases: z.array(aliasSchema).default([]).superRefine((aliases, ctx) => {
    const cycle = aliasCycle(aliases);
    if (cycle !== void 0)
      ctx.addIssue({
        code: "custom",
        path: [cycle.index, "alias"],
        message: `aliases form a cycle (${cycle.names.join(" \u2192 ")} \u2192 \u2026): a holder needs one canonical name or LEI`
      });
  }).describe(
    "Holder names or LEIs and the canonical holder each is (a name or an LEI), followed until it ends: a fund's spellings, its entities and the LEI one register gives it (the AMF) become one holder on the console's holder pages and for every `holders` entry (a channel filter, a subscriber, a mute). Names are matched spelling-insensitively (holder keys). Cycles are refused. Default: none."
  )
}).describe('One holder across registers: docs/sources.md, "One holder across registers".');
export {
  holdersSchema
};
