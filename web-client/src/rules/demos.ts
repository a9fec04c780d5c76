import type { CatalogueGame } from "./types";

export const demos: CatalogueGame = {
  id: "demos",
  name: "DēmoS",
  shortName: "DēmoS",
  minSeats: 3,
  maxSeats: 5,
  pitch:
    "Discard, scheme and win rounds for figures — then survive the Scandal and win the Election.",
  glyph: "⚖",
  hue: 205,
  teams: true,
  rules: `
## The goal
Win rounds of cards to collect **figures** — the Executive (E), the Legislative (L) and the Judicial (J) — and finish with the best **E-L-J trio** when the **Election** is held.

## The cards
- **The People's Pack:** number cards 1–10 in ♠ ♥ ♦ ♣ (40 cards). The simplified game has no 1s (36 cards).
- **The Power Pile:** the figures E, L and J in each suit (12), plus two **Media** (M) in the complete game.

## A round
The deal passes clockwise each round, and everything starts with the player to the dealer's left. Everyone gets five cards, then three discard turns follow (two in the simplified game).
- **Public discard:** everyone discards one card face up and draws the top of the pack.
- **Secret discard:** discard one card face down, then take the top of the pack **or** any of the public discards (your own included). Compulsory in the simplified game, optional in the complete game.
- **Unanimous discard** (complete game): it happens only if nobody vetoes it. Every player (or team) has **one veto per game**. If nobody vetoes, the secret discards are turned up and everyone discards one more card face down, then takes the top of the pack or one of the visible discards.

## Who wins the round
Everyone shows their best combination:
- **Harmonious Square** (one number in all four suits): **30** points.
- **Sequence** of three consecutive numbers: **12 + lowest** in one suit, **8 + lowest** in two suits, **4 + lowest** in three suits. No wrap-around: 9-10-1 is not a sequence.
- No combination: you forfeit the round.

Ties are broken by the most cards of one suit in the whole hand, then by the higher total of the two unshown cards; then both win. The winner draws one figure (**two** after a Square). A Square also forces every other player to turn up their first E, L or J. Round points are kept as a running total.

## The end
The main phase ends when the Power Pile is empty or after the round limit.

**Scandal** (complete game): figures are laid face down, and the Media are revealed. A player with both Media discards them. Otherwise each Media holder picks one face-down figure of another player, names a suit, and turns it face up with the Media on it: that card now has that suit, and must be part of its owner's final trio.

**Election:** each player's best E-L-J trio counts — **three suits beats two suits beats one suit**, and a player with no trio comes last. Ties go to the higher running points total, otherwise the win is shared. If nobody has a trio, nobody wins.

## Team play (2v2, 2v3, 2v2+1)
- Teammates may talk only in the team chat, and only while it is open: for 15 seconds at the start of a round and during team decisions.
- Each team has one veto (the two-player team in 2v3 has two; the Independent has one).
- A round is won by the team of the best player. The team decides who receives each figure; a Square's reveal hits only opponents.
- Teammates see each other's figures, never each other's hands.
- **2v2+1:** a three-suit trio wins first. Otherwise the Independent wins by the strictly highest points, by both Media plus a Judicial figure, or by a two-suit trio. Otherwise the team with the best remaining trio wins (two suits, then one suit); otherwise nobody wins.

## House choices
- **Discards are simultaneous:** everyone commits their discard (and where they want their replacement from) at once; then the moves are carried out clockwise from the dealer's left. If the public card you asked for was taken by an earlier player, you get the top of the pack instead and are told so. (Room option: *sequential*, one player after another.)
- **Vetoes:** before the Unanimous turn, players are asked clockwise from the dealer's left. The first veto cancels the turn at once and is the only one spent; the secret discards then stay hidden. Vetoes left are public. A team veto needs every teammate to confirm.
- **Visible discards** for the Unanimous turn are the untaken public discards plus the revealed secret ones.
- **Your best combination is chosen for you** (most points, then the highest total of unshown cards). Your unshown cards stay secret: only the winner and the tie-break that decided are announced.
- **Round limit:** 14 in the complete game, 12 in the simplified game (room option). A Square winner with one figure left draws one; tied winners short of figures draw in dealing order. A round where everyone forfeits still counts.
- **A Square's reveal** turns up each affected player's earliest E, L or J. If it is already face up, nothing more happens.
- **Media target blind:** the holder picks a face-down figure by position, not by face. A player left with two Media-marked cards of the same type has no trio.
- **An Independent holding both Media** takes no Media actions but keeps both face up (they count for the Independent's win).
- **Team victory** uses each member's own trio; the team is as strong as its best member.
- **Team seating** is chosen by the host or drawn at random; teams need not alternate.
- The **Creator's Suggestion** (+10 for a declared favourite suit) is an optional room variant, off by default.
- **When the clock runs out** on a team decision: no veto, and figures go to the player who won the round.
`,
};
