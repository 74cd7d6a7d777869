/** A short tone for "your turn", a low one for a refused move, and a high short beep when
 * one's own clock runs low, made with Web Audio. */

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

/** Your own clock is running low. */
export function lowTime() {
  tone(1320, 0.12);
}
