# Runs at power-on on the Pico: the reader hub (cardhub.py, PROTOCOL.md).
import cardhub

cardhub.main()
