import { describe, expect, it } from "vitest";
import * as server from "../../src/passwords/strength.js";
import * as browser from "../../web/src/pages/auth/strength.js";

// The console judges a new password's strength as it is typed (web/src/pages/auth/strength.ts); the server judges it on save (src/passwords/strength.ts). Both must say the same.

const OWNERS = [null, { email: "dana.lopez@example.com", name: "Dana Quixotic-Zylberstein" }, { email: "x@y.io" }];
const PASSWORDS = [
  "aaaaaaaaaaaa",
  " ".repeat(12),
  "qwertyuiopasdfgh",
  "1234567890ab",
  "zylberstein1!",
  "commission tracking service",
  "P@ssw0rd!2024",
  "Harbour-Lantern-Quietly-52",
  "p@$$w0rd".repeat(32),
];

describe("#26 the console's strength estimate equals the server's", () => {
  it("same settings, threshold and guessable words", () => {
    expect(browser.ESTIMATE_OPTIONS).toEqual(server.ESTIMATE_OPTIONS);
    expect([browser.MIN_STRENGTH, browser.SERVICE_NAME]).toEqual([server.MIN_STRENGTH, server.SERVICE_NAME]);
    for (const owner of OWNERS) expect(browser.userInputs(owner)).toEqual(server.userInputs(owner));
  });

  it("the same score and hint for every password and owner", async () => {
    const estimate = await browser.loadEstimator();
    for (const owner of OWNERS) {
      for (const password of PASSWORDS) {
        expect(estimate(password, owner), password).toEqual(server.estimateStrength(password, owner));
      }
    }
  });
});
