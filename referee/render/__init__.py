"""Rendering: card faces and backs, table textures, scenes under a random camera, and the synthetic
datasets built from them. Kept free of imports here so ``import referee.render`` costs nothing;
import the submodules (they load OpenCV) where they are used."""
