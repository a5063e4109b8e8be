"""Learning environments: a PettingZoo AEC game (`aec`) and a Gymnasium single-agent game
against a fixed opponent (`gym`). Each needs its framework installed
(`pip install "baghchal-engine[envs]"`)."""
