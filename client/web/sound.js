/** A short tone for "your turn" and a low one for a refused move, made with Web Audio. */

let context = null;

function tone(frequency, seconds) {
  try {
    context ??= new AudioContext();
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + seconds);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start();
    oscillator.stop(context.currentTime + seconds);
  } catch {
    // No audio on this browser: the page says everything in words as well.
  }
}

/** It is your turn. */
export function yourTurn() {
  tone(880, 0.18);
}

/** The server refused what you did. */
export function refused() {
  tone(220, 0.25);
}
