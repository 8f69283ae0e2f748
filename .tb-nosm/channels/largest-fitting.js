function largestFitting(count, fits) {
  let fitting = 1;
  let tooMany = count + 1;
  for (let probe = 2; probe < tooMany; probe *= 2) {
    if (fits(probe)) fitting = probe;
    else tooMany = probe;
  }
  while (tooMany - fitting > 1) {
    const middle = Math.floor((fitting + tooMany) / 2);
    if (fits(middle)) fitting = middle;
    else tooMany = middle;
  }
  return fitting;
}
export {
  largestFitting
};
