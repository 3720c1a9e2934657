"""The simulation lab: tournaments between bots and design statistics over many games."""
