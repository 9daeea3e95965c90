import { describe, expect, it } from "vitest";
import { inviteAttendees } from "../../src/office/intake/meeting-intake.js";

const maria = { redacted: "m***@acme.com", hash: "h:maria", vault_ref: "vault_ref:vlt_m" };
const dan = { redacted: "d***@acme.com", hash: "h:dan", vault_ref: "vault_ref:vlt_d" };

describe("who an invite is for", () => {
  it("the attendee, then the person who asked when their address is known", () => {
    expect(
      inviteAttendees({ attendee_name: "Maria", attendee_email: maria }, { display_name: "Dan", email: dan }),
    ).toEqual([
      { name: "Maria", vault_ref: "vault_ref:vlt_m", email_redacted: "m***@acme.com", email_hash: "h:maria" },
      { name: "Dan", vault_ref: "vault_ref:vlt_d", email_redacted: "d***@acme.com", email_hash: "h:dan" },
    ]);
  });

  it("nobody twice, and no one without an address", () => {
    expect(
      inviteAttendees({ attendee_name: "Dan", attendee_email: dan }, { display_name: "Dan", email: dan }),
    ).toHaveLength(1);
    expect(inviteAttendees({ attendee_name: "Maria", attendee_email: maria }, { display_name: "Dan" })).toHaveLength(1);
    expect(inviteAttendees({ attendee_name: "Maria", attendee_email: maria })).toHaveLength(1);
  });
});
