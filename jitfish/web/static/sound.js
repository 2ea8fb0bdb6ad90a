// Sounds of `jitfish web`, synthesised with the Web Audio API (no sound files): move, capture,
// check, castle, a checkers piece crowned, game end and low time. Browsers allow audio only after a user gesture, so the
// audio context is made on the first click, touch or key press. An ES module: main.js makes the
// page's one Sounds.

export class Sounds {
  constructor() {
    this.enabled = true;
    this.context = null;
    this.noise = null;
    const unlock = () => this.unlock();
    for (const kind of ["pointerdown", "keydown", "touchstart"]) {
      window.addEventListener(kind, unlock, {capture: true, passive: true});
    }
  }

  unlock() {
    if (!this.enabled) return;
    try {
      if (!this.context) {
        const Context = window.AudioContext || window.webkitAudioContext;
        if (!Context) return;
        this.context = new Context();
      }
      if (this.context.state === "suspended") this.context.resume().catch(() => {});
    } catch (error) {
      this.context = null;             // no audio here: the game goes on silently
    }
  }

  // Switched on by a click, this is itself a gesture that may start the audio.
  setEnabled(on, gesture) {
    this.enabled = !!on;
    if (this.enabled && gesture) this.unlock();
  }

  noiseBuffer() {
    if (!this.noise) {
      const ctx = this.context;
      const length = Math.floor(ctx.sampleRate * 0.2);
      this.noise = ctx.createBuffer(1, length, ctx.sampleRate);
      const data = this.noise.getChannelData(0);
      for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / length, 3);
    }
    return this.noise;
  }

  // A short knock: filtered noise (the wood) and a low sine (the body), starting `delay` s from now.
  knock(delay, pitch, loudness) {
    const ctx = this.context, t = ctx.currentTime + delay;
    const source = ctx.createBufferSource();
    source.buffer = this.noiseBuffer();
    const filter = ctx.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = pitch * 6;
    filter.Q.value = 1.2;
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.7 * loudness, t + 0.004);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.09);
    source.connect(filter).connect(gain).connect(ctx.destination);
    source.start(t);
    source.stop(t + 0.12);
    this.tone(delay, pitch, 0.08, 0.35 * loudness, "sine");
  }

  tone(delay, frequency, length, loudness, type) {
    const ctx = this.context, t = ctx.currentTime + delay;
    const osc = ctx.createOscillator();
    osc.type = type || "sine";
    osc.frequency.setValueAtTime(frequency, t);
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(loudness, t + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + length + 0.02);
  }

  // kind: move, capture, check, castle, crown, end, lowtime, error
  play(kind) {
    if (!this.enabled || !this.context || this.context.state !== "running") return;
    try {
      switch (kind) {
        case "move": this.knock(0, 220, 0.8); break;
        case "capture": this.knock(0, 160, 1.0); this.knock(0.05, 120, 0.7); break;
        case "castle": this.knock(0, 220, 0.7); this.knock(0.11, 200, 0.7); break;
        case "check": this.knock(0, 220, 0.8); this.tone(0.02, 880, 0.18, 0.18, "triangle");
          this.tone(0.12, 1175, 0.22, 0.15, "triangle"); break;
        case "crown": this.knock(0, 200, 0.9); this.tone(0.04, 784, 0.16, 0.14, "triangle");
          this.tone(0.13, 1175, 0.26, 0.14, "triangle"); break;
        case "end": [523, 659, 784, 1047].forEach((f, i) => this.tone(i * 0.12, f, 0.5, 0.16, "triangle")); break;
        case "lowtime": this.tone(0, 1400, 0.07, 0.12, "square"); this.tone(0.15, 1400, 0.07, 0.12, "square"); break;
        case "error": this.tone(0, 140, 0.15, 0.12, "sawtooth"); break;
        default: break;
      }
    } catch (error) {
      // A sound that cannot play is no reason to disturb the game.
    }
  }
}
