"""Models and measurements from and to the formats engineers already have (SDF3, PREESM, Amalthea, CSV)."""
