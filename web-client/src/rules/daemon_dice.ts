import type { CatalogueGame } from "./types";

export const daemonDice: CatalogueGame = {
  id: "daemon_dice",
  name: "Daemon Dice",
  shortName: "Daemon Dice",
  minSeats: 2,
  maxSeats: 6,
  pitch: "Build a daemon of body-part dice, then stun, wound and grab your rivals until they fall.",
  glyph: "⚅",
  hue: 28,
  teams: false,
  rules: `
## The goal
Your **daemon** is a set of dice, one per body part. Defeat the other daemons: a daemon loses when it has nothing left to roll, or when every one of its dice is stunned, wounded or grabbed. The last daemon standing wins.

## The dice
- A daemon normally has **13 dice**, one for each body part: Arm, Brain, Eye, Leg, Lungs, Mouth, Pincer, Shell, Spike, Stinger, Tail, Tentacle, Wings.
- Besides body parts, faces show the seven symbols: **Block, Deflect, Dodge, Minus, Plus, Stun, Wound**.
- Every roll is public.

## Building your daemon
Everyone builds at once, in secret: pick your dice, then say you are ready. The others see only how many dice you have picked and whether you are ready. An exact half-and-half daemon declares its breed as it gets ready, so no build can be told from another before the reveal. The daemons are revealed together once everyone is ready.

## Who starts
Everyone rolls all their dice. Every Dodge, Plus, Minus and Wings counts one point (Lungs none, unless the room says otherwise). The highest total goes first.
- **A tie for the highest total:** only the daemons tied for it roll again; everyone else is out of the running and keeps the roll they made. Only the new rolls of the tied daemons compete, among themselves: nobody who dropped out can overtake them, however low the new rolls are.
- **A tie again:** again only the daemons tied for the highest of the new rolls roll once more (three rolls in all at most).
- **A third tie:** a coin toss (a random pick) decides among the daemons tied in that third roll.
- **Minuses against the first turn:** in a duel, the loser's minuses (each Minus, each Wings, and two for each Lungs) apply to the winner's first turn. With more daemons, the one with the most minuses among all who did not start applies them (a tie drawn at random). Every daemon's minuses are read from its **own last roll**: the reroll for a daemon that rolled again, the first roll for one that dropped out at once.

## A turn
1. **Roll.** Your dice that are not stunned, wounded or grabbed become active (a Tentacle holding a grab may be activated to let go). Set aside as many active dice as your foe's minuses — they are not rolled but can still take damage. Roll the rest. If there is nothing to roll, you lose.
2. **Recover.** Each Plus may recover one stunned die. Recovered dice and the pluses used sit out the rest of the turn.
3. **Defend.** Match your defences against the attacks arrayed against you, then take the undefended damage on dice of your choice (each point on a different die that is neither stunned nor wounded). If all your dice are stunned, wounded or grabbed, you lose.
4. **Attack.** Apply grabs, set aside minuses against your foe's next turn, and array attacks, boosting them with pluses.

## Attacks and defences
- An attack without boosts is stopped by **one** Block, Deflect or Dodge (of a kind that can stop it).
- Each **boost** (a Plus added to the attack) takes **one more die** in the defence: another of the same kind, or a Plus. An attack with 2 boosts takes three dice, such as a Block and two Pluses, or three Blocks. Pluses alone never defend.
- **Block** stops anything except rays and sweeps. **Dodge** stops only rays and sweeps. **Deflect** stops anything. Blocks, deflects and dodges never mix in one defence.
- **Stun** — 1 stun. **Wound** — 1 wound.

## Body parts
- **Arm:** a 1-stun attack **or** a deflect (your choice when you use it).
- **Brain:** pairs with one attack; if that attack gets through, *you* choose which dice take its damage. Cannot carry a Spike.
- **Eye:** a ray, 1 stun; each Plus on it counts as 2 boosts. Cannot be blocked.
- **Leg:** 2 stuns.
- **Lungs:** 2 minuses.
- **Mouth:** 1 stun; if undefended, you recover one of your stunned dice.
- **Pincer:** 1 wound.
- **Shell:** a deflect, boosted by pluses or other deflects.
- **Spike:** adds 1 wound to another attack if it gets through (not to an Eye or a Brain attack). Spikes stack.
- **Stinger:** 1 stun. You may declare **poison**: if undefended, the foe also takes a wound, and your Stinger is stunned.
- **Tail:** a sweep, 2 stuns. Cannot be blocked.
- **Tentacle:** grabs a foe's die. A grabbed die cannot be rolled, minus-ed or grabbed. The grab ends if the victim puts damage on the grabbed die, if the Tentacle is damaged, targeted or grabbed, or if its owner loses.
- **Wings:** a targeted minus — you pick the foe's die — applied before other minuses. Counts for initiative.

## Breeds and powers
Dice come in eight breeds: Blood, Death, Fester, Fire, Frost, Rot, Stench and Wraith.
- **Purebred** (every die one breed): immune to rays, gas and poison from its own breed, and a power: **Frost** turns one wound a turn into a stun; **Rot** turns one die in the defender's stun pool into a wound at the end of its turn; **Fire** turns one stun a turn from an undefended attack into a wound. Other breeds have immunity only.
- **Half-breed** (at least half one breed): immune to rays, gas and poison from dice sharing its colours.
- **Mongrel** (no two dice alike): recovers one stunned die each turn for free.

## Multiplayer battles
Each turn you pick **one** target daemon for all your effects; that daemon takes the next turn. A defeated daemon picks who goes next.

## House choices
- **Pluses alone never defend:** a defence always needs at least one Block, Dodge or Deflect.
- **Lungs count 0 for initiative** (Wings counts 1), but a losing Lungs still applies its two minuses (room option: 0, 1 or 2).
- **Minuses:** the victim picks which dice take ordinary minuses; the attacker picks the target of a Wings minus, which is applied first. If minuses cover all your active dice, you lose.
- **Grabs** cannot be defended; a grabbed die still counts toward "all dice stunned, wounded or grabbed".
- **Damage with nowhere to go** is lost. Targeted (Brain) damage is placed before untargeted damage.
- **Mouth before Stinger:** after defences, the Mouth recovers first, then the Stinger's self-stun and the damage.
- **Poison is declared** openly when attacks are arrayed; against an immune daemon the Stinger still stuns itself.
- **Breeds:** half-breed means at least half of the dice share one breed; "exactly alike" means same breed and same body part. An exact half-and-half daemon declares its breed, in secret, as it gets ready.
- **Sizes:** 13 dice by default; 5, 26 or any equal number by room option. Powers grow by one per started block of 13 dice.
- **Building your daemon:** any mix of breed and body part; copies of one die have no limit by default (room option: most copies of one die).
- **Arraying is free:** every attack face you have not used is arrayed as its own attack, and every minus is set aside; you decide the grabs and where your pluses, Spikes, Brains and poison go. Pluses, Spikes and Brains are interchangeable, so the lowest-numbered one is used.
- **Fire** turns the first stun of its undefended attacks each turn into a wound, Brain-targeted damage first.
- **Only one die can take it:** a point of damage goes there automatically.
- **A defeated daemon** releases its grabs, and grabs on its dice end.
- **Turn limit:** a battle still undecided after 200 turns (room option) ends; the daemons still standing are ranked by their healthy dice.
- **Off-turn choices** (a Wings target, Brain damage, a Mouth recovery) default to the lowest-numbered eligible die when the clock runs out.
> **House set.** The real dice faces have never been published. Until they are, every die uses the house layout **[its body part, Stun, Block, Dodge, Plus, Minus]**. Breed colours: Frost blue with yellow ink, Rot black with red, Fire red with yellow; the other five breeds use house colours: Blood red with black ink, Death white with black, Fester green with red, Stench brown with green, Wraith grey with white. Real data can replace it without changing the rules.
`,
};
