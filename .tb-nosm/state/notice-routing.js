function noticeChannels(config, severity) {
  if (config.ops.channel !== void 0) return [config.ops.channel];
  if (severity !== "critical") return [];
  return config.channels.filter((channel) => channel.mode === "immediate" && channel.kind !== "webhook").map((channel) => channel.name);
}
export {
  noticeChannels
};
