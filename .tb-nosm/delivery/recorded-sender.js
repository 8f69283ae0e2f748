import { attemptRow } from "./attempt-row.js";
function recordedSender(sender, channel, deps) {
  const note = async (row) => {
    try {
      await deps.record.append(row, deps.limits);
    } catch (error) {
      deps.logger.error(
        { channel: channel.name, deliveryId: row.deliveryId, err: error },
        "delivery record not written"
      );
    }
  };
  return {
    async send(message, progress) {
      if (progress === void 0) return sender.send(message, progress);
      try {
        await sender.send(message, progress);
      } catch (error) {
        await note(attemptRow(channel, message, progress.deliveryId, error));
        throw error;
      }
      await note(attemptRow(channel, message, progress.deliveryId));
    },
    coalesce: (groups) => sender.coalesce(groups),
    verify: () => sender.verify(),
    close: () => sender.close()
  };
}
export {
  recordedSender
};
